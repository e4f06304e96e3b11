package server

import (
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"github.com/labstack/echo/v4"

	"github.com/stratahq/strata/projects/lsp"
)

const (
	// lspReadLimit: a didOpen carries a whole block file, far more than
	// the main websocket's messages.
	lspReadLimit = 16 << 20
	// lspOutBuffer messages queued for a connection; a client that falls
	// this far behind gopls is disconnected rather than stalling the others.
	lspOutBuffer = 512
)

// lspBridge adapts the project's gopls (projects/lsp) to websockets: one
// JSON-RPC message per websocket text message, in both directions.
type lspBridge struct {
	proxy    *lsp.Proxy
	log      *slog.Logger
	upgrader websocket.Upgrader

	mu     sync.Mutex
	conns  map[*websocket.Conn]struct{}
	closed bool
	wg     sync.WaitGroup
}

func newLSPBridge(s *Server) *lspBridge {
	return &lspBridge{proxy: lsp.New(s.cfg.ProjectDir, s.log), log: s.log, conns: map[*websocket.Conn]struct{}{}, upgrader: websocket.Upgrader{
		ReadBufferSize: 64 << 10, WriteBufferSize: 64 << 10,
		// Origin is checked before Upgrade, with an error in the API's shape.
		CheckOrigin: func(*http.Request) bool { return true },
	}}
}

func (s *Server) lspRoutes(api *echo.Group) {
	api.GET("/lsp", s.lsp.serve)
}

// serve is GET /api/v1/lsp (authenticated by the Pre middleware). Without
// Upgrade it says whether gopls is there and which root the editor should
// name files under; with it, it bridges to gopls.
func (b *lspBridge) serve(c echo.Context) error {
	r := c.Request()
	if err := b.proxy.Available(); err != nil {
		return apiErr(http.StatusServiceUnavailable, CodeUnavailable, "%s", err.Error())
	}
	if !websocket.IsWebSocketUpgrade(r) {
		return c.JSON(http.StatusOK, map[string]string{"root_uri": b.proxy.RootURI(), "gopls": lsp.Version})
	}
	if !sameOrigin(r) {
		return apiErr(http.StatusForbidden, CodeForbidden, "websocket from origin %q refused: only pages served by this server (%s) may connect", r.Header.Get("Origin"), r.Host)
	}
	b.mu.Lock()
	closed := b.closed
	b.mu.Unlock()
	if closed {
		return apiErr(http.StatusServiceUnavailable, CodeUnavailable, "shutting down")
	}
	ws, err := b.upgrader.Upgrade(c.Response(), r, nil)
	if err != nil {
		return nil // the upgrader has answered the client
	}
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		ws.Close()
		return nil
	}
	b.conns[ws] = struct{}{}
	b.wg.Add(1)
	b.mu.Unlock()
	defer b.wg.Done()

	out := make(chan []byte, lspOutBuffer)
	done := make(chan struct{})
	var once sync.Once
	stop := func() { once.Do(func() { close(done) }) }
	client := b.proxy.Connect(func(m []byte) {
		select {
		case out <- m:
		case <-done:
		default:
			stop() // too slow: drop the connection, not the messages of others
		}
	})
	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		for {
			select {
			case m := <-out:
				_ = ws.SetWriteDeadline(time.Now().Add(10 * time.Second))
				if err := ws.WriteMessage(websocket.TextMessage, m); err != nil {
					stop()
					return
				}
			case <-done:
				return
			}
		}
	}()
	ws.SetReadLimit(lspReadLimit)
	go func() {
		<-done
		_ = ws.Close() // ends ReadMessage below
	}()
	for {
		_, m, err := ws.ReadMessage()
		if err != nil {
			if errors.Is(err, websocket.ErrReadLimit) {
				b.log.Warn("lsp websocket message over the limit", "limit", lspReadLimit)
			}
			break
		}
		if err := client.Handle(m); err != nil {
			b.log.Warn("lsp message from the editor", "err", err)
		}
	}
	stop()
	<-writerDone
	client.Close()
	b.mu.Lock()
	delete(b.conns, ws)
	b.mu.Unlock()
	return nil
}

// close ends the connections and stops gopls.
func (b *lspBridge) close() {
	b.mu.Lock()
	b.closed = true
	for ws := range b.conns {
		_ = ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseGoingAway, "server shutting down"), time.Now().Add(time.Second))
		_ = ws.Close()
	}
	b.mu.Unlock()
	b.wg.Wait()
	b.proxy.Close()
}
