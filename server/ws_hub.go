package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"github.com/labstack/echo/v4"

	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/notebook"
	"github.com/stratahq/strata/projects/triggers/launcher"
	"github.com/stratahq/strata/server/auth"
)

const (
	wsWriteWait   = 10 * time.Second // a write that takes longer means a dead peer
	wsPongWait    = 60 * time.Second // no pong (or message) for this long closes the connection
	wsPingEvery   = 25 * time.Second
	wsSendTimeout = 5 * time.Second // a client this far behind on results is dropped
	wsCloseLinger = 5 * time.Second // a dropped slow client's time to read its close frame
	wsOutBuffer   = 512             // messages queued per connection
	wsEventBuffer = 1024            // engine notices queued per subscribed connection
)

// wsHub owns the websocket connections: it upgrades them, reads their
// messages, routes execute/interrupt/restart to the editor session the
// connection is attached to, and forwards engine notices to subscribers.
// Each connection has one writer goroutine (gorilla allows one concurrent
// writer), fed by a bounded queue.
type wsHub struct {
	s        *Server
	upgrader websocket.Upgrader

	mu     sync.Mutex
	conns  map[*wsConn]struct{}
	closed bool
	wg     sync.WaitGroup // connection goroutines
}

func newWSHub(s *Server) *wsHub {
	return &wsHub{s: s, conns: map[*wsConn]struct{}{}, upgrader: websocket.Upgrader{
		ReadBufferSize:  16 << 10,
		WriteBufferSize: 16 << 10,
		// Origin is checked before Upgrade, with an error in the API's shape.
		CheckOrigin: func(*http.Request) bool { return true },
	}}
}

// serveWS is GET /api/v1/ws (authenticated by the Pre middleware).
func (h *wsHub) serveWS(c echo.Context) error {
	r := c.Request()
	if !websocket.IsWebSocketUpgrade(r) {
		return badRequest("this is the websocket endpoint: connect with a websocket client (Upgrade: websocket)")
	}
	if !sameOrigin(r) {
		return apiErr(http.StatusForbidden, CodeForbidden, "websocket from origin %q refused: only pages served by this server (%s) may connect", r.Header.Get("Origin"), r.Host)
	}
	h.mu.Lock()
	closed := h.closed
	h.mu.Unlock()
	if closed {
		return apiErr(http.StatusServiceUnavailable, CodeUnavailable, "shutting down")
	}
	ws, err := h.upgrader.Upgrade(c.Response(), r, nil)
	if err != nil {
		return nil // the upgrader has answered the client
	}
	who, _ := principal(c)
	conn := &wsConn{hub: h, who: who, ws: ws, out: make(chan []byte, wsOutBuffer), done: make(chan struct{}), readDone: make(chan struct{}), topics: map[string]bool{}}
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		ws.Close()
		return nil
	}
	h.conns[conn] = struct{}{}
	h.wg.Add(2)
	h.mu.Unlock()
	h.s.metrics.wsConns.Add(1)
	go func() { defer h.wg.Done(); conn.writeLoop() }()
	defer h.wg.Done()
	conn.readLoop()
	return nil
}

// closeAll tells every client the server is going away and stops accepting.
func (h *wsHub) closeAll() {
	h.mu.Lock()
	h.closed = true
	conns := make([]*wsConn, 0, len(h.conns))
	for c := range h.conns {
		conns = append(conns, c)
	}
	h.mu.Unlock()
	for _, c := range conns {
		c.close(websocket.CloseGoingAway, "server shutting down")
	}
}

// broadcast sends m to every connection, dropping it for one whose queue
// is full rather than waiting on a slow reader.
func (h *wsHub) broadcast(m Message) {
	h.mu.Lock()
	conns := make([]*wsConn, 0, len(h.conns))
	for c := range h.conns {
		conns = append(conns, c)
	}
	h.mu.Unlock()
	for _, c := range conns {
		c.trySend(m)
	}
}

// wait returns once every connection's goroutines have ended.
func (h *wsHub) wait() { h.wg.Wait() }

func (h *wsHub) remove(c *wsConn) {
	h.mu.Lock()
	delete(h.conns, c)
	h.mu.Unlock()
	h.s.metrics.wsConns.Add(-1)
}

// wsConn is one websocket connection.
type wsConn struct {
	hub  *wsHub
	ws   *websocket.Conn
	out  chan []byte
	done chan struct{}
	// readDone closes when readLoop returns (the peer closed or failed).
	readDone chan struct{}

	closeOnce   sync.Once
	closeCode   int
	closeReason string

	// who connected: every message is checked against its role.
	who auth.Principal

	mu      sync.Mutex
	session *notebook.Session
	topics  map[string]bool
	sub     *engine.Subscription
}

// send queues a message, waiting briefly when the queue is full; a client
// that stays behind is disconnected rather than holding memory forever.
func (c *wsConn) send(m Message) bool {
	b, err := json.Marshal(m)
	if err != nil {
		b, _ = json.Marshal(ErrorMessage(m.ID, WSBadMessage, "encode reply: "+err.Error()))
	}
	select {
	case c.out <- b:
		return true
	case <-c.done:
		return false
	default:
	}
	t := time.NewTimer(wsSendTimeout)
	defer t.Stop()
	select {
	case c.out <- b:
		return true
	case <-c.done:
		return false
	case <-t.C:
		c.close(websocket.ClosePolicyViolation, "client too slow to read")
		return false
	}
}

// trySend queues a message only if there is room: streamed stdout must not
// stall the kernel that produces it.
func (c *wsConn) trySend(m Message) bool {
	b, err := json.Marshal(m)
	if err != nil {
		return false
	}
	select {
	case c.out <- b:
		return true
	default:
		return false
	}
}

func (c *wsConn) close(code int, reason string) {
	c.closeOnce.Do(func() {
		c.closeCode, c.closeReason = code, reason
		close(c.done)
	})
}

func (c *wsConn) writeLoop() {
	ping := time.NewTicker(wsPingEvery)
	defer ping.Stop()
	defer c.ws.Close()
	for {
		select {
		case b := <-c.out:
			switch c.waitWritable() {
			case socketStuck:
				// The client has not read for wsSendTimeout: the close
				// frame goes where b would not fit.
				c.close(websocket.ClosePolicyViolation, "client too slow to read")
				c.sayGoodbye()
				c.lingerSlow()
				return
			case socketClosing:
				c.finish(b)
				return
			}
			_ = c.ws.SetWriteDeadline(time.Now().Add(wsWriteWait))
			if err := c.ws.WriteMessage(websocket.TextMessage, b); err != nil {
				c.close(websocket.CloseAbnormalClosure, "")
				return
			}
		case <-ping.C:
			if err := c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(wsWriteWait)); err != nil {
				c.close(websocket.CloseAbnormalClosure, "")
				return
			}
		case <-c.done:
			c.finish(nil)
			return
		}
	}
}

// lingerSlow keeps the connection of a client given up on as too slow
// open after the 1008 close frame, for at most wsCloseLinger, while
// readLoop drains what it sends: closing at once, with its data unread,
// would make the kernel answer with a reset, and the client would lose the
// close frame still in its receive buffer. A client that reads again finds
// the frame and answers it, which ends the wait.
func (c *wsConn) lingerSlow() {
	select {
	case <-c.readDone:
	case <-time.After(wsCloseLinger):
	}
}

// finish flushes what is queued (pending first: a final result, a shutdown
// notice), then says goodbye; for a client too slow to read it says goodbye
// at once, since flushing would block.
func (c *wsConn) finish(pending []byte) {
	if c.closeCode == websocket.ClosePolicyViolation {
		c.sayGoodbye()
		c.lingerSlow()
		return
	}
	write := func(b []byte) bool {
		_ = c.ws.SetWriteDeadline(time.Now().Add(time.Second))
		return c.ws.WriteMessage(websocket.TextMessage, b) == nil
	}
	if pending != nil && !write(pending) {
		return
	}
	for {
		select {
		case b := <-c.out:
			if !write(b) {
				return
			}
		default:
			c.sayGoodbye()
			return
		}
	}
}

// sayGoodbye writes the close frame with the code the connection was
// closed with (none after an abnormal closure: the peer is gone).
func (c *wsConn) sayGoodbye() {
	if c.closeCode != websocket.CloseAbnormalClosure {
		_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(c.closeCode, c.closeReason), time.Now().Add(time.Second))
	}
}

// What waitWritable found.
const (
	socketReady   = iota
	socketStuck   // no room for wsSendTimeout: the client is not reading
	socketClosing // the connection was closed meanwhile
)

// waitWritable waits until the socket has room for a message, for at most
// wsSendTimeout, polling in steps so that a close is noticed.
func (c *wsConn) waitWritable() int {
	deadline := time.Now().Add(wsSendTimeout)
	for !socketWritable(c.ws.NetConn(), 100*time.Millisecond) {
		select {
		case <-c.done:
			return socketClosing
		default:
		}
		if time.Now().After(deadline) {
			return socketStuck
		}
	}
	return socketReady
}

func (c *wsConn) readLoop() {
	defer close(c.readDone)
	defer c.cleanup()
	c.ws.SetReadLimit(c.hub.s.cfg.WSReadLimit)
	_ = c.ws.SetReadDeadline(time.Now().Add(wsPongWait))
	c.ws.SetPongHandler(func(string) error { return c.ws.SetReadDeadline(time.Now().Add(wsPongWait)) })
	for {
		kind, data, err := c.ws.ReadMessage()
		if err != nil {
			if err == websocket.ErrReadLimit {
				c.close(websocket.CloseMessageTooBig, "message larger than the limit")
			} else {
				c.close(websocket.CloseNormalClosure, "")
			}
			return
		}
		_ = c.ws.SetReadDeadline(time.Now().Add(wsPongWait))
		if kind != websocket.TextMessage {
			c.send(ErrorMessage("", WSBadMessage, "binary messages are not part of the protocol: send JSON text"))
			continue
		}
		var m ClientMessage
		if err := json.Unmarshal(data, &m); err != nil {
			id := ""
			var probe struct {
				ID string `json:"id"`
			}
			if json.Unmarshal(data, &probe) == nil {
				id = probe.ID
			}
			c.send(ErrorMessage(id, WSBadMessage, "not a message: "+err.Error()+`; want a JSON object such as {"type": "ping", "id": "1"}`))
			continue
		}
		c.dispatch(m)
	}
}

func (c *wsConn) dispatch(m ClientMessage) {
	if !c.authorized(m) {
		return
	}
	switch m.Type {
	case MsgPing:
		c.send(PongMessage(m.ID))
	case MsgHello:
		c.hello(m)
	case MsgExecute:
		sess, err := c.sessionFor()
		if err != nil {
			c.send(ErrorMessage(m.ID, WSNoSession, err.Error()))
			return
		}
		owner, err := c.hub.s.envStore().Resolve(c.hub.s.ctx, m.Env)
		if err != nil {
			c.send(ErrorMessage(m.ID, WSInvalid, err.Error()))
			return
		}
		sess.Execute(notebook.Exec{ID: m.ID, Pipeline: m.Pipeline, Block: m.Block, Source: m.Source, Partition: m.Partition, Item: m.Item, Engine: m.Engine, Env: owner})
	case MsgInterrupt:
		sess := c.currentSession()
		if sess == nil {
			c.send(ErrorMessage(m.ID, WSNotRunning, "nothing is running: this connection has no session"))
			return
		}
		sess.Interrupt(m.ID, m.ExecID)
	case MsgRestart:
		sess, err := c.sessionFor()
		if err != nil {
			c.send(ErrorMessage(m.ID, WSNoSession, err.Error()))
			return
		}
		sess.Restart(m.ID)
	case MsgSubscribe:
		c.subscribe(m)
	case MsgUnsubscribe:
		c.unsubscribe(m)
	case MsgTriggers:
		reply := c.hub.s.wsTriggers(m)
		c.auditTriggers(m, reply)
		c.send(reply)
	case "":
		c.send(ErrorMessage(m.ID, WSBadMessage, `missing "type": want one of hello, execute, interrupt, restart, subscribe, unsubscribe, triggers, ping`))
	default:
		c.send(ErrorMessage(m.ID, WSUnknownType, "unknown message type "+quote(string(m.Type))+": want one of hello, execute, interrupt, restart, subscribe, unsubscribe, triggers, ping"))
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func (c *wsConn) currentSession() *notebook.Session {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.session
}

func (c *wsConn) setSession(s *notebook.Session) {
	c.mu.Lock()
	c.session = s
	c.mu.Unlock()
}

// cleanup runs when the read loop ends: the session stays, detached, for a
// reload to find; subscriptions end.
func (c *wsConn) cleanup() {
	c.close(websocket.CloseNormalClosure, "")
	c.mu.Lock()
	sess, sub := c.session, c.sub
	c.session, c.sub = nil, nil
	c.mu.Unlock()
	if sess != nil {
		c.hub.s.sessions.Detach(sess, sessionClient{c})
	}
	if sub != nil {
		sub.Close()
	}
	c.hub.remove(c)
}

// validTopic: all, or backfill:/run:/pipeline: followed by an id.
func validTopic(t string) bool {
	if t == "all" {
		return true
	}
	kind, id, ok := strings.Cut(t, ":")
	if !ok || id == "" || len(id) > 256 {
		return false
	}
	return kind == "backfill" || kind == "run" || kind == "pipeline"
}

func topicMatches(topic string, n engine.Notice) bool {
	if topic == "all" {
		return true
	}
	kind, id, _ := strings.Cut(topic, ":")
	switch kind {
	case "backfill":
		return (n.Event != nil && n.Event.BackfillID == id) || (n.Progress != nil && n.Progress.BackfillID == id) ||
			(n.Review != nil && n.Review.Backfill != nil && n.Review.Backfill.ID == id)
	case "run":
		return n.Event != nil && n.Event.RunID == id
	case "pipeline":
		if f, ok := n.Data.(*launcher.Firing); ok {
			return f.Pipeline == id // a trigger of the pipeline fired, skipped or failed
		}
		if n.Review != nil && n.Review.Backfill != nil {
			return n.Review.Backfill.Pipeline == id
		}
		return n.Event != nil && n.Event.Pipeline == id
	}
	return false
}

// matching lists the connection's topics a notice belongs to. It runs inside
// the engine hub's Publish, so it only reads a small map.
func (c *wsConn) matching(n engine.Notice) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for t := range c.topics {
		if topicMatches(t, n) {
			out = append(out, t)
		}
	}
	return out
}

func (c *wsConn) subscribe(m ClientMessage) {
	if !validTopic(m.Topic) {
		c.send(ErrorMessage(m.ID, WSInvalid, "topic "+quote(m.Topic)+": want backfill:<id>, run:<id>, pipeline:<id> or all"))
		return
	}
	c.mu.Lock()
	c.topics[m.Topic] = true
	needSub := c.sub == nil
	c.mu.Unlock()
	if needSub {
		// Never call into the engine hub while holding c.mu: the hub calls
		// matching (which takes c.mu) while holding its own lock.
		sub := c.hub.s.eng.Hub().Subscribe(wsEventBuffer, func(n engine.Notice) bool { return len(c.matching(n)) > 0 })
		c.mu.Lock()
		if c.sub != nil {
			c.mu.Unlock()
			sub.Close()
		} else {
			c.sub = sub
			c.mu.Unlock()
			c.hub.wg.Add(1)
			go func() { defer c.hub.wg.Done(); c.forward(sub) }()
		}
	}
	c.send(SubscribedMessage(MsgSubscribed, m.ID, m.Topic))
}

func (c *wsConn) unsubscribe(m ClientMessage) {
	c.mu.Lock()
	_, ok := c.topics[m.Topic]
	delete(c.topics, m.Topic)
	c.mu.Unlock()
	if !ok {
		c.send(ErrorMessage(m.ID, WSInvalid, "not subscribed to "+quote(m.Topic)))
		return
	}
	c.send(SubscribedMessage(MsgUnsubscribed, m.ID, m.Topic))
}

// forward sends engine notices to the client until the connection or the
// subscription ends.
func (c *wsConn) forward(sub *engine.Subscription) {
	for {
		select {
		case n, ok := <-sub.C:
			if !ok {
				return
			}
			if n.Event != nil && n.Event.At.IsZero() {
				// The engine publishes before its store stamps the event.
				ev := *n.Event
				ev.At = time.Now().UTC()
				n.Event = &ev
			}
			for _, t := range c.matching(n) {
				if !c.send(EventMessage(t, n)) {
					return
				}
			}
		case <-c.done:
			return
		}
	}
}
