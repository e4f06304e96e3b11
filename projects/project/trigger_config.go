package project

import (
	"fmt"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/stratahq/strata/projects/partitions"
	"github.com/stratahq/strata/projects/triggers"
)

// Trigger kinds.
const (
	TriggerSchedule = "schedule" // fires on a cron schedule in a zone
	TriggerEvent    = "event"    // fires when another pipeline publishes a product this one reads
	TriggerAPI      = "api"      // fires only when called (POST .../triggers/:id/fire)
)

// What an event trigger counts as a change (when: {changes: ...}).
const (
	// ChangesNewVersion: a new current version of a partition of the product.
	ChangesNewVersion = "new-version"
	// ChangesNewKey: the product is the key set of one of the pipeline's
	// dynamic dimensions, and that key set gained keys; the trigger runs
	// the cells of the new keys alone.
	ChangesNewKey = "new-key"
)

// Trigger is one element of a pipeline's `triggers:` list. Every trigger can
// also be fired through the API; Kind says what else fires it.
type Trigger struct {
	ID       string
	Kind     string
	Cron     string             // schedule: the expression as written
	Timezone string             // schedule: IANA zone; the pipeline's partition zone when left out
	Schedule *triggers.Schedule // schedule: parsed
	Product  string             // event: the global product whose new versions fire it
	Changes  string             // event: what counts as a change: new-version or new-key
	// Dims are the dynamic dimensions whose key set is Product (new-key).
	Dims     []string
	Run      triggers.RunSpec // effective, the default applied
	CatchUp  int              // schedule: missed ticks run after downtime, the most recent ones
	Line     int              // line of the trigger in the pipeline file
	Disabled string           // why it never fires (an unknown product, a trigger loop); "" when it works

	index       int
	productNode *yaml.Node
}

var triggerFields = []string{"id", "schedule", "when", "api", "run", "catch_up"}
var scheduleFields = []string{"cron", "timezone"}
var whenFields = []string{"product", "changes"}
var catchUpFields = []string{"max"}

var triggerIDPattern = regexp.MustCompile(`^[a-z][a-z0-9_-]*$`)

// Trigger returns the pipeline's trigger with that id, or nil.
func (p *Pipeline) Trigger(id string) *Trigger {
	for _, t := range p.Triggers {
		if t.ID == id {
			return t
		}
	}
	return nil
}

// decodeTriggers reads `triggers:`; it needs the pipeline's partitioning,
// so it runs after partitions are decoded.
func (d *decoder) decodeTriggers(pl *Pipeline, e entry) {
	if e.val.Kind != yaml.SequenceNode {
		d.addf(e.val, "triggers", "want a list of triggers (each starting with \"- id: name\"), got %s", describe(e.val))
		return
	}
	seen := map[string]*Trigger{}
	for i, n := range e.val.Content {
		t := d.decodeTrigger(pl, resolve(n), i)
		if t == nil {
			continue
		}
		if first, dup := seen[t.ID]; dup {
			d.addf(n, index("triggers", i)+".id", "duplicate trigger id %q (first at line %d)", t.ID, first.Line)
			continue
		}
		seen[t.ID] = t
		pl.Triggers = append(pl.Triggers, t)
	}
}

func (d *decoder) decodeTrigger(pl *Pipeline, n *yaml.Node, i int) *Trigger {
	path := index("triggers", i)
	f, ok := d.fields(n, path, "a trigger", triggerFields)
	if !ok {
		return nil
	}
	t := &Trigger{Line: n.Line, index: i, Timezone: pl.Partitions.Timezone}
	idE, ok := f["id"]
	if !ok {
		d.addf(n, path+".id", "missing id: every trigger needs one, such as \"id: nightly\"")
		return nil
	}
	if t.ID, ok = d.str(idE, path+".id"); !ok {
		return nil
	}
	if !triggerIDPattern.MatchString(t.ID) || len(t.ID) > maxNameLen {
		d.addf(idE.val, path+".id", "trigger id %q: want lowercase letters, digits, _ and -, starting with a letter", t.ID)
	}
	var kinds []string
	if e, ok := f["schedule"]; ok {
		kinds = append(kinds, "schedule")
		t.Kind = TriggerSchedule
		d.decodeSchedule(t, e, path+".schedule")
	}
	if e, ok := f["when"]; ok {
		kinds = append(kinds, "when")
		t.Kind = TriggerEvent
		d.decodeWhen(t, e, path+".when")
	}
	if e, ok := f["api"]; ok {
		if v, ok := d.boolean(e, path+".api"); ok && v {
			kinds = append(kinds, "api")
			t.Kind = TriggerAPI
		}
	}
	switch len(kinds) {
	case 0:
		d.addf(n, path, "trigger %q says nothing about when it fires: want schedule: {cron: ...}, when: {product: ...}, or api: true", t.ID)
		return nil
	case 1:
	default:
		d.addf(n, path, "trigger %q has %s: a trigger fires one way; split it into one trigger each", t.ID, strings.Join(kinds, " and "))
		return nil
	}
	interval := partitions.Interval(pl.Partitions.Interval)
	event := t.Kind == TriggerEvent
	newKey := event && t.Changes == ChangesNewKey
	if newKey {
		d.checkNewKey(pl, t, f["when"], path+".when")
	}
	t.Run = triggers.DefaultRun(event, interval)
	if e, ok := f["run"]; ok {
		if s, ok := d.str(e, path+".run"); ok {
			r, err := triggers.ParseRun(s)
			if err == nil && newKey {
				err = r.FitsNewKey(interval)
			} else if err == nil {
				err = r.Fits(event, interval)
			}
			if err != nil {
				d.addf(e.val, path+".run", "%s", err)
			} else {
				t.Run = r
			}
		}
	}
	t.CatchUp = triggers.DefaultCatchUp
	if e, ok := f["catch_up"]; ok {
		if t.Kind != TriggerSchedule {
			d.addf(e.key, path+".catch_up", "catch_up is for schedule triggers: an event or API trigger has no missed ticks")
		} else if cf, ok := d.fields(e.val, path+".catch_up", "a catch_up mapping", catchUpFields); ok {
			if m, ok := cf["max"]; ok {
				if v, ok := d.integer(m, path+".catch_up.max"); ok {
					if v < 1 {
						d.addf(m.val, path+".catch_up.max", "max %d: want at least 1 (the most recent missed tick always runs; older ones beyond max are skipped)", v)
					} else {
						t.CatchUp = v
					}
				}
			}
		}
	}
	return t
}

func (d *decoder) decodeSchedule(t *Trigger, e entry, path string) {
	f, ok := d.fields(e.val, path, "a schedule mapping", scheduleFields)
	if !ok {
		return
	}
	if z, ok := f["timezone"]; ok {
		if s, ok := d.str(z, path+".timezone"); ok && d.checkTimezone(z.val, path+".timezone", s) {
			t.Timezone = s
		} else {
			return
		}
	}
	c, ok := f["cron"]
	if !ok {
		d.addf(e.val, path+".cron", "missing cron: want five fields (minute hour day-of-month month day-of-week) such as \"30 2 * * *\"")
		return
	}
	if t.Cron, ok = d.str(c, path+".cron"); !ok {
		return
	}
	s, err := triggers.ParseSchedule(t.Cron, t.Timezone)
	if err != nil {
		d.addf(c.val, path+".cron", "%s", err)
		return
	}
	t.Schedule = s
}

func (d *decoder) decodeWhen(t *Trigger, e entry, path string) {
	f, ok := d.fields(e.val, path, "a when mapping", whenFields)
	if !ok {
		return
	}
	p, ok := f["product"]
	if !ok {
		d.addf(e.val, path+".product", "missing product: name the global product whose new versions fire this trigger")
		return
	}
	if t.Product, ok = d.str(p, path+".product"); ok {
		t.productNode = p.val
	}
	t.Changes = ChangesNewVersion
	if c, ok := f["changes"]; ok {
		if s, ok := d.str(c, path+".changes"); ok {
			switch s {
			case ChangesNewVersion, ChangesNewKey:
				t.Changes = s
			default:
				d.addf(c.val, path+".changes", "unknown changes %q: want new-version (a new current version of a partition) or new-key (the key set of a dynamic dimension read from the product gained keys)", s)
			}
		}
	}
}

// checkNewKey finds the dynamic dimensions of pl whose key set is the
// trigger's product: a new-key trigger runs their new keys' cells.
func (d *decoder) checkNewKey(pl *Pipeline, t *Trigger, e entry, path string) {
	var dynamic []string
	for _, dc := range pl.Partitions.Dims {
		if !dc.Dynamic() {
			continue
		}
		dynamic = append(dynamic, fmt.Sprintf("%s (from %s)", dc.Name, dc.Product))
		if dc.Product == t.Product {
			t.Dims = append(t.Dims, dc.Name)
		}
	}
	if len(t.Dims) > 0 || t.Product == "" {
		return
	}
	have := "it has none"
	if len(dynamic) > 0 {
		have = "its dynamic dimensions: " + strings.Join(dynamic, ", ")
	}
	d.addf(e.val, path+".changes", "changes: new-key fires when the key set of a dynamic dimension read from %s gains keys, but no dimension of pipeline %s reads its keys from %s (%s)", t.Product, pl.ID, t.Product, have)
}

// checkTriggerProducts reports event triggers naming a product no pipeline
// exposes, and loops of pipelines that trigger each other through products
// (A publishes x, which triggers B, which publishes y, which triggers A):
// such a loop would run forever. proj holds every pipeline, pl possibly in
// place of the project's copy; owner is the pipeline each global product
// belongs to (claimProducts).
func checkTriggerProducts(pipelines map[string]*Pipeline, ids []string, owner map[string]*Pipeline) map[string]Problems {
	for _, id := range ids {
		for _, t := range pipelines[id].Triggers {
			t.Disabled = "" // decided again below, from this set of pipelines
		}
	}
	probs := map[string]Problems{}
	add := func(pl *Pipeline, t *Trigger, format string, args ...any) {
		p := Problem{File: pl.File, Line: t.Line, Field: index("triggers", t.index) + ".when.product", Message: fmt.Sprintf(format, args...)}
		if t.productNode != nil {
			p.Line, p.Column = t.productNode.Line, t.productNode.Column
		}
		t.Disabled = p.Message
		probs[pl.ID] = append(probs[pl.ID], p)
	}
	// downstream[a] lists the pipelines a's products trigger, with the trigger.
	type edge struct {
		to *Pipeline
		t  *Trigger
	}
	downstream := map[string][]edge{}
	for _, id := range ids {
		pl := pipelines[id]
		for _, t := range pl.Triggers {
			if t.Kind != TriggerEvent || t.Product == "" {
				continue
			}
			up := owner[t.Product]
			if up == nil {
				var names []string
				for n := range owner {
					names = append(names, n)
				}
				add(pl, t, "unknown product %q%s: no pipeline exposes it (global products: %s)", t.Product, didYouMean(t.Product, names), quoteList(sortedStrings(names)))
				continue
			}
			downstream[up.ID] = append(downstream[up.ID], edge{pl, t})
		}
	}
	for _, id := range ids {
		pl := pipelines[id]
		for _, r := range pl.Reads {
			if owner[r.Product] == nil {
				var names []string
				for n := range owner {
					names = append(names, n)
				}
				p := Problem{File: pl.File, Line: r.node.Line, Column: r.node.Column, Field: index("reads", r.index) + ".product",
					Message: fmt.Sprintf("unknown product %q%s: no pipeline exposes it (global products: %s)", r.Product, didYouMean(r.Product, names), quoteList(sortedStrings(names)))}
				probs[pl.ID] = append(probs[pl.ID], p)
			}
		}
	}
	// A depth-first walk finds each loop once, at the trigger that closes it.
	state := map[string]int{} // 0 unvisited, 1 on the path, 2 done
	var path []string
	var walk func(id string)
	walk = func(id string) {
		state[id] = 1
		path = append(path, id)
		for _, e := range downstream[id] {
			switch state[e.to.ID] {
			case 0:
				walk(e.to.ID)
			case 1:
				start := 0
				for i, p := range path {
					if p == e.to.ID {
						start = i
					}
				}
				loop := append(append([]string{}, path[start:]...), e.to.ID)
				add(e.to, e.t, "trigger loop: %s (each pipeline's product triggers the next, so they would trigger each other forever); remove one of these event triggers",
					strings.Join(loop, " -> "))
			}
		}
		path = path[:len(path)-1]
		state[id] = 2
	}
	for _, id := range ids {
		if state[id] == 0 {
			walk(id)
		}
	}
	return probs
}

func sortedStrings(s []string) []string {
	out := append([]string(nil), s...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
