package server

import (
	"net/http"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/stratahq/strata/projects/alerts"
)

func (s *Server) alertRoutes(g *echo.Group) {
	g.GET("/alerts", s.listAlerts)
}

// listAlerts: GET /alerts?state=queued|failed|delivered|dead, newest first:
// the deliveries of this server's alerts, dead letters included. Without
// alerts configured the list is empty.
func (s *Server) listAlerts(c echo.Context) error {
	state := c.QueryParam("state")
	switch state {
	case "", alerts.StateQueued, alerts.StateFailed, alerts.StateDelivered, alerts.StateDead:
	default:
		return badRequest("state=%q: want queued, failed, delivered or dead", state)
	}
	out := []alerts.DeliveryStatus{}
	if s.cfg.Alerts != nil {
		out = append(out, s.cfg.Alerts.Deliveries(state)...)
	}
	slices.SortFunc(out, func(a, b alerts.DeliveryStatus) int {
		if c := b.Alert.At.Compare(a.Alert.At); c != 0 {
			return c
		}
		return strings.Compare(a.Delivery, b.Delivery)
	})
	return c.JSON(http.StatusOK, map[string]any{"deliveries": out})
}
