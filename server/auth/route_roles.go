package auth

import (
	"slices"
	"strings"
)

// Routes gives every HTTP route the least role it needs, keyed by method
// and echo's route path ("POST /api/v1/backfills/:id/promote"). A route
// that is registered but missing here is refused to everyone (and fails
// the server's role test, which walks every registered route), so a new
// route cannot ship without a decision.
//
// A pipeline run or backfill publishes to prod's current versions, so
// launching one is an operator's act; an editor edits files, runs cells
// (whose outputs stay drafts) and runs and backfills into an environment,
// which prod never sees until an operator promotes it.
var Routes = map[string]Role{
	// Needs no token.
	"GET /healthz": Public,
	"GET /*":       Public, // the static frontend holds no data
	"HEAD /*":      Public,

	// Browser login through an OpenID provider (server/login): the
	// handlers themselves check state, nonce and the ID token.
	"GET /auth/login":    Public,
	"GET /auth/callback": Public,
	"POST /auth/logout":  Public,

	"GET /metrics": Viewer, // names pipelines and backfills

	// Who is asking (the frontend hides what the role may not do).
	"GET /api/v1/me": Viewer,

	// Pipelines and their files.
	"GET /api/v1/pipelines":                              Viewer,
	"GET /api/v1/pipelines/:id":                          Viewer,
	"POST /api/v1/pipelines":                             Editor,
	"PUT /api/v1/pipelines/:id":                          Editor,
	"DELETE /api/v1/pipelines/:id":                       Editor,
	"GET /api/v1/pipelines/:id/key-sets/:dim":            Viewer,
	"GET /api/v1/pipelines/:id/blocks":                   Viewer,
	"GET /api/v1/pipelines/:id/blocks/:block":            Viewer,
	"POST /api/v1/pipelines/:id/blocks":                  Editor,
	"PUT /api/v1/pipelines/:id/blocks/:block":            Editor,
	"DELETE /api/v1/pipelines/:id/blocks/:block":         Editor,
	"POST /api/v1/pipelines/:id/cells/state":             Viewer, // reads what is stale; changes nothing
	"GET /api/v1/pipelines/:id/blocks/:block/sql-tables": Viewer,
	// The notebook's structure: files written, as a save does.
	"POST /api/v1/pipelines/:id/rename":               Editor,
	"GET /api/v1/pipelines/:id/delete-plan":           Viewer, // lists what a delete would remove; changes nothing
	"POST /api/v1/pipelines/:id/blocks/:block/move":   Editor,
	"POST /api/v1/pipelines/:id/blocks/:block/rename": Editor,
	"PUT /api/v1/pipelines/:id/blocks/:block/note":    Editor,
	"PUT /api/v1/pipelines/:id/note":                  Editor,
	// The trigger form writes the pipeline file.
	"POST /api/v1/pipelines/:id/triggers":            Editor,
	"PUT /api/v1/pipelines/:id/triggers/:trigger":    Editor,
	"DELETE /api/v1/pipelines/:id/triggers/:trigger": Editor,
	"GET /api/v1/triggers/schedule-preview":          Viewer, // reads a cron expression; changes nothing
	"GET /api/v1/project/settings":                   Viewer, // strata.yaml, a file of the project
	"PUT /api/v1/project/settings":                   Admin,
	"POST /api/v1/project/check":                     Editor, // diagnostics of unsaved text
	"GET /api/v1/lsp":                                Editor, // gopls runs the go command on the project

	// Editor sessions' drafts.
	"GET /api/v1/sessions/:session/drafts/:pipeline/:block/rows":     Editor,
	"GET /api/v1/sessions/:session/drafts/:pipeline/:block/rows.csv": Editor,
	"GET /api/v1/sessions/:session/drafts/:pipeline/:block/summary":  Editor,
	"GET /api/v1/sessions/:session/outputs":                          Editor, // the cells' last outputs (previews of drafts)

	// Runs.
	"POST /api/v1/pipelines/:id/runs": Operator,
	"GET /api/v1/runs":                Viewer,
	"GET /api/v1/runs/:id":            Viewer,
	"POST /api/v1/runs/:id/cancel":    Operator,

	// Replay tests: the code on disk over stored partitions, diffed
	// against them; they publish nothing, so an editor runs them as cells.
	"POST /api/v1/pipelines/:id/replays": Editor,
	"GET /api/v1/replays/:id":            Viewer,

	// Backfills and their review.
	"POST /api/v1/backfills/plan":               Viewer, // a dry run: changes nothing
	"POST /api/v1/backfills":                    Operator,
	"GET /api/v1/backfills":                     Viewer,
	"GET /api/v1/backfills/:id":                 Viewer,
	"GET /api/v1/backfills/:id/partitions":      Viewer,
	"GET /api/v1/backfills/:id/failures":        Viewer,
	"GET /api/v1/backfills/:id/conflicts":       Viewer,
	"GET /api/v1/backfills/:id/review":          Viewer,
	"GET /api/v1/backfills/:id/diff":            Viewer,
	"POST /api/v1/backfills/:id/retry":          Operator,
	"POST /api/v1/backfills/:id/promote-anyway": Operator,
	"POST /api/v1/backfills/:id/keep-newer":     Operator,
	"POST /api/v1/backfills/:id/cancel":         Operator,
	"POST /api/v1/backfills/:id/pause":          Operator,
	"POST /api/v1/backfills/:id/resume":         Operator,
	"POST /api/v1/backfills/:id/promote":        Operator,
	// What a promote would make current, for its confirmation: only those
	// who may promote ask.
	"POST /api/v1/backfills/:id/promote/plan": Operator,
	"POST /api/v1/backfills/:id/discard":      Operator,
	"POST /api/v1/backfills/:id/rollback":     Operator,

	// Environments (projects/envs): an editor builds in one, where nothing
	// it runs reaches prod; switching an environment into prod, or
	// dropping one (its versions with it), is an operator's act.
	"GET /api/v1/envs":                           Viewer,
	"POST /api/v1/envs":                          Editor,
	"GET /api/v1/envs/:name":                     Viewer,
	"DELETE /api/v1/envs/:name":                  Operator,
	"GET /api/v1/envs/:name/diff":                Viewer,
	"GET /api/v1/envs/:name/diff/rows":           Viewer,
	"POST /api/v1/envs/:name/promote":            Operator,
	"POST /api/v1/envs/:name/rollback":           Operator,
	"POST /api/v1/envs/:name/pipelines/:id/runs": Editor,
	"POST /api/v1/envs/:name/backfills":          Editor,
	// Its launcher or an operator (checked in the handler, as it enters):
	// an editor stops what they started in an environment.
	"POST /api/v1/envs/:name/backfills/:id/cancel": Editor,
	"POST /api/v1/envs/:name/backfills/:id/pause":  Editor,
	"POST /api/v1/envs/:name/backfills/:id/resume": Editor,

	// Products.
	"GET /api/v1/products":                   Viewer,
	"GET /api/v1/products/:name/partitions":  Viewer,
	"GET /api/v1/products/:name/preview":     Viewer,
	"GET /api/v1/products/:name/preview.csv": Viewer,
	// One stored version in sdktest's exact wire (sdktest.FromVersion).
	"GET /api/v1/products/:name/rows":      Viewer,
	"GET /api/v1/products/:name/aggregate": Viewer,
	"GET /api/v1/products/:name/diff":      Viewer,
	"POST /api/v1/products/:name/rollback": Operator,
	"GET /api/v1/products/owners":          Viewer,
	// Which pipeline may write a global product is a decision about the
	// project, as its settings are.
	"POST /api/v1/products/:name/transfer": Admin,

	// Triggers.
	"GET /api/v1/triggers":                                Viewer,
	"GET /api/v1/pipelines/:id/triggers":                  Viewer,
	"GET /api/v1/pipelines/:id/triggers/:trigger":         Viewer,
	"GET /api/v1/pipelines/:id/triggers/:trigger/preview": Viewer,
	"POST /api/v1/pipelines/:id/triggers/:trigger/fire":   Operator,
	"POST /api/v1/pipelines/:id/triggers/:trigger/pause":  Operator,
	"POST /api/v1/pipelines/:id/triggers/:trigger/resume": Operator,

	// The websocket: each message is checked again (Messages).
	"GET /api/v1/ws": Viewer,

	// Alert deliveries (dead letters included).
	"GET /api/v1/alerts": Viewer,

	// Audit trail and users.
	"GET /api/v1/audit":          Viewer,
	"GET /api/v1/users":          Admin,
	"POST /api/v1/users":         Admin,
	"DELETE /api/v1/users/:name": Admin,
}

// RouteRole returns the role a route needs; false when the table has no
// entry (refuse it).
func RouteRole(method, path string) (Role, bool) {
	r, ok := Routes[method+" "+path]
	return r, ok
}

// Messages gives every websocket message type the least role it needs; a
// type missing here is refused. The triggers message depends on its action
// (TriggersAction).
var Messages = map[string]Role{
	"ping":        Viewer,
	"subscribe":   Viewer,
	"unsubscribe": Viewer,
	// hello attaches an editor session, which owns a kernel process.
	"hello":     Editor,
	"execute":   Editor,
	"interrupt": Editor,
	"restart":   Editor,
	"triggers":  Viewer, // and TriggersAction
}

// TriggersAction is the role a websocket triggers request needs by action.
var TriggersAction = map[string]Role{
	"":        Viewer, // list
	"list":    Viewer,
	"preview": Viewer,
	"pause":   Operator,
	"resume":  Operator,
}

// MessageRole returns the role a websocket message needs. An unknown type
// gets Viewer here, so that the dispatcher can answer "unknown type" to
// anyone; a known type missing from Messages is refused (None).
func MessageRole(typ, action string, known bool) Role {
	r, ok := Messages[typ]
	if !ok {
		if known {
			return None
		}
		return Viewer
	}
	if typ == "triggers" {
		a, ok := TriggersAction[action]
		if !ok {
			return Viewer // the handler answers "unknown action"
		}
		if a > r {
			r = a
		}
	}
	return r
}

// Table lists the route table sorted by path then method, for docs.
func Table() [][2]string {
	keys := make([]string, 0, len(Routes))
	for k := range Routes {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		ma, pa, _ := strings.Cut(a, " ")
		mb, pb, _ := strings.Cut(b, " ")
		if c := strings.Compare(pa, pb); c != 0 {
			return c
		}
		return strings.Compare(ma, mb)
	})
	out := make([][2]string, len(keys))
	for i, k := range keys {
		out[i] = [2]string{k, Routes[k].String()}
	}
	return out
}
