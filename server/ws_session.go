package server

import "github.com/stratahq/strata/projects/notebook"

// The editor's notebook sessions live in projects/notebook; this file only
// adapts them to the websocket: client messages become calls on the
// connection's session, and a session's events become messages.

// previewRows is how many rows of an execution's output travel in "result".
const previewRows = notebook.PreviewRows

// sessionClient is a connection as a notebook session's client.
type sessionClient struct{ c *wsConn }

func (w sessionClient) Send(ev notebook.Event) bool    { return w.c.send(eventMessage(ev)) }
func (w sessionClient) TrySend(ev notebook.Event) bool { return w.c.trySend(eventMessage(ev)) }

var _ notebook.Client = sessionClient{}

// eventMessage is a session event in the websocket's shape.
func eventMessage(ev notebook.Event) Message {
	switch ev.Kind {
	case notebook.EventStatus:
		st := ev.Status
		return Message{Type: MsgStatus, ID: ev.ID, Session: st.Session, State: st.State, Pipeline: st.Pipeline,
			Block: st.Block, Partition: st.Partition, ExecID: st.ExecID, Restarted: st.Restarted}
	case notebook.EventStdout:
		return StdoutMessage(ev.ID, ev.Stream, ev.Data)
	case notebook.EventLog:
		return LogMessage(ev.ID, *ev.Log)
	case notebook.EventResult:
		r := ev.Result
		m := ResultMessage(ev.ID, r.Preview, r.Duration, r.Entry)
		m.Stdout, m.Partition, m.Inputs, m.Engine, m.Item = r.Stdout, r.Partition, r.Inputs, r.Engine, r.Item
		return m
	case notebook.EventError:
		f := ev.Error
		if f.Run != nil {
			m := RunErrorMessage(ev.ID, f.Run, *f.Duration)
			m.Engine = f.Engine
			m.Error.Offer = f.Offer
			return m
		}
		return ErrorMessage(ev.ID, f.Code, f.Message)
	}
	return ErrorMessage(ev.ID, WSBadMessage, "unknown session event "+string(ev.Kind))
}

// hello attaches c to the session named in m; a session c held before is
// left detached.
func (c *wsConn) hello(m ClientMessage) {
	mgr := c.hub.s.sessions
	if err := notebook.ValidID(m.Session); err != nil {
		c.send(ErrorMessage(m.ID, WSInvalid, err.Error()))
		return
	}
	if old := c.currentSession(); old != nil && old.ID() != m.Session {
		mgr.Detach(old, sessionClient{c})
		c.setSession(nil)
	}
	s, err := mgr.Attach(m.Session, sessionClient{c}, m.ID)
	if err != nil {
		c.send(ErrorMessage(m.ID, WSNoSession, err.Error()))
		return
	}
	c.setSession(s)
}

// sessionFor returns c's session, creating an anonymous one if it has none.
func (c *wsConn) sessionFor() (*notebook.Session, error) {
	if s := c.currentSession(); s != nil {
		return s, nil
	}
	s, err := c.hub.s.sessions.Anonymous(sessionClient{c})
	if err != nil {
		return nil, err
	}
	c.setSession(s)
	return s, nil
}
