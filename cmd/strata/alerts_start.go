package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strings"
	"time"

	"github.com/stratahq/strata/kernel/remote"
	"github.com/stratahq/strata/projects/alerts"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/tracing"
)

// openAlerts starts the project's alert deliveries (resuming what an
// earlier process left pending). Links point at addr unless strata.yaml's
// alerts.url names the address people use.
func openAlerts(ws *workspace, addr net.Addr) (*alerts.Notifier, error) {
	return alerts.Open(alerts.Config{
		ProjectDir: ws.proj.Dir,
		Project:    ws.proj.Name,
		Settings:   func() project.AlertConfig { return ws.eng.Project().Alerts },
		BaseURL:    strings.TrimSuffix(serverURL(addr, ""), "/"),
	})
}

// watchWorkers alerts when a worker that was live stops answering without
// having said it was leaving (a worker that leaves says so and is dropped
// from the registry at once). It polls the registry the way `strata
// workers` reads it, until ctx ends.
func watchWorkers(ctx context.Context, reg *remote.Registry, n *alerts.Notifier) {
	t := time.NewTicker(2 * time.Second)
	defer t.Stop()
	live := map[string]remote.Heartbeat{}
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		var lost []remote.Heartbeat
		live, lost = lostWorkers(live, reg, time.Now())
		for _, hb := range lost {
			n.WorkerLost(hb.ID, hb.Host, fmt.Sprintf("no heartbeat since %s; its tasks go to other workers when their leases end", hb.At.UTC().Format(time.RFC3339)))
		}
	}
}

// lostWorkers compares the workers live at now with those live before:
// one that is no longer live but still known (it did not say it was
// leaving) is lost. It returns the live set for the next call.
func lostWorkers(before map[string]remote.Heartbeat, reg *remote.Registry, now time.Time) (map[string]remote.Heartbeat, []remote.Heartbeat) {
	cur := map[string]remote.Heartbeat{}
	for _, hb := range reg.Live(now) {
		cur[hb.ID] = hb
	}
	known := map[string]bool{}
	for _, hb := range reg.All() {
		known[hb.ID] = true
	}
	var lost []remote.Heartbeat
	for id, hb := range before {
		if _, ok := cur[id]; !ok && known[id] {
			lost = append(lost, hb)
		}
	}
	return cur, lost
}

// setLogFormat makes the process's log (slog's default, which the server,
// the engine's helpers and alerts write to) text or JSON lines on stderr.
func setLogFormat(format string) error {
	switch format {
	case "text":
		return nil
	case "json":
		// trace_id and span_id on lines logged inside a span.
		slog.SetDefault(slog.New(tracing.LogHandler{Handler: slog.NewJSONHandler(os.Stderr, nil)}))
		return nil
	}
	return fmt.Errorf("--log-format %q: want text or json", format)
}
