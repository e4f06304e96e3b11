package server

import (
	"github.com/stratahq/strata/projects/audit"
	"github.com/stratahq/strata/server/auth"
)

// WSForbidden is the error code of a websocket message the caller's role
// may not send.
const WSForbidden = "forbidden"

// clientTypes are the message types a client may send; auth.Messages gives
// each its role.
var clientTypes = map[MessageType]bool{MsgHello: true, MsgExecute: true, MsgInterrupt: true, MsgRestart: true,
	MsgSubscribe: true, MsgUnsubscribe: true, MsgPing: true, MsgTriggers: true}

// authorized checks one message against the connection's role (the role
// of the token it connected with) and answers a refusal itself.
func (c *wsConn) authorized(m ClientMessage) bool {
	need := auth.MessageRole(string(m.Type), m.Action, clientTypes[m.Type])
	if c.who.Role.Allows(need) {
		return true
	}
	what := "websocket message " + quote(string(m.Type))
	if m.Type == MsgTriggers {
		what += " (action " + quote(m.Action) + ")"
	}
	c.send(ErrorMessage(m.ID, WSForbidden, forbidden(c.who, need, what).Message))
	return false
}

// auditTriggers records a websocket pause or resume of a trigger that
// succeeded (reply is not an error).
func (c *wsConn) auditTriggers(m ClientMessage, reply Message) {
	if reply.Type == MsgError || (m.Action != "pause" && m.Action != "resume") {
		return
	}
	action := audit.ActionTriggerPause
	if m.Action == "resume" {
		action = audit.ActionTriggerResume
	}
	c.hub.s.recordAudit(audit.Entry{Actor: c.who.Name, Role: c.who.Role.String(), Action: action,
		Pipeline: m.Pipeline, Target: m.Trigger, Via: "ws"})
}
