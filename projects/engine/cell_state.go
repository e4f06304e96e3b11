package engine

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/stratahq/strata/projects/fingerprint"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/snapshot"
)

// StoredState is what the warehouse holds of one block for one partition,
// judged as a backfill plan judges it: missing, current, or stale and why.
// The notebook shows it on each cell.
type StoredState struct {
	Block     string `json:"block"`
	Product   string `json:"product,omitempty"` // empty for an Export
	Partition string `json:"partition"`         // the block's own partition key (a week for a weekly block)
	State     string `json:"state"`             // missing, current, stale; none for an Export
	Version   int    `json:"version,omitempty"`
	// Cause is the kind of staleness: code, variable, code+variable,
	// upstream (an upstream partition was rewritten since) or
	// upstream_stale (an upstream is itself stale or missing).
	Cause  string `json:"cause,omitempty"`
	Reason string `json:"reason,omitempty"` // for people: "variable margin changed (0.32 → 0.5)"
}

// Staleness causes.
const (
	CauseCode          = "code"
	CauseVariable      = "variable"
	CauseCodeVariable  = "code+variable"
	CauseModule        = "module" // a module it imports changed version in go.mod
	CauseUpstream      = "upstream"
	CauseUpstreamStale = "upstream_stale"
)

// StoredStates judges every block of a pipeline for the pipeline partition
// key (the latest complete one when empty): the same comparison as a
// backfill plan's (code fingerprint with variables, and the versions each
// output read), with the reason split into code, variable and upstream.
// A block whose own output is current but an upstream of which is stale or
// missing is stale too (cause upstream_stale): a run of the pipeline would
// change its inputs.
func (e *Engine) StoredStates(ctx context.Context, pipelineID, key string) ([]StoredState, error) {
	pl, err := e.Pipeline(pipelineID)
	if err != nil {
		return nil, err
	}
	spec, err := SpecOf(pl.Partitions)
	if err != nil {
		return nil, err
	}
	if key == "" {
		key = spec.Latest(e.now()).Key
	}
	p, err := spec.Parse(key)
	if err != nil {
		return nil, fmt.Errorf("pipeline %s: %w", pl.ID, err)
	}
	dir := e.project().Dir
	pd, err := e.loadPlanData(ctx, dir, pl, "")
	if err != nil {
		return nil, err
	}
	order := pl.Order()
	byID := map[string]*StoredState{}
	out := make([]StoredState, 0, len(order))
	for _, b := range order {
		st := StoredState{Block: b.ID, Partition: p.Key}
		if b.Partitions.Interval != pl.Partitions.Interval {
			bs, err := SpecOf(b.Partitions)
			if err == nil {
				if cs := spec.Containing(p, bs); len(cs) > 0 {
					st.Partition = cs[0].Key
				}
			}
		}
		if b.Entry == project.EntryExport {
			st.State = "none"
			out = append(out, st)
			byID[b.ID] = &out[len(out)-1]
			continue
		}
		st.Product = ProductName(pl, b)
		vi, ok := pd.current[st.Product][st.Partition]
		switch {
		case !ok:
			st.State = "missing"
		case !vi.codeIs(pd.hashes[b.ID]):
			st.State, st.Version = "stale", vi.version
			st.Cause, st.Reason = e.codeChange(ctx, pl, b, st.Product, st.Partition, vi, pd.hashes[b.ID])
		default:
			st.State, st.Version = "current", vi.version
			why := rewired(pl, b, vi)
			if why == "" {
				why = pd.staleUpstream(vi)
			}
			if why != "" {
				st.State, st.Cause, st.Reason = "stale", CauseUpstream, why
			}
		}
		if st.State == "current" {
			for _, u := range b.Upstream {
				if us := byID[u]; us != nil && (us.State == "stale" || us.State == "missing") {
					st.State, st.Cause, st.Reason = "stale", CauseUpstreamStale, fmt.Sprintf("upstream %s is %s", u, us.State)
					break
				}
			}
		}
		out = append(out, st)
		byID[b.ID] = &out[len(out)-1]
	}
	return out, nil
}

// codeChange says whether a version's fingerprint differs from the block's
// now because of its code, a variable it reads, or both. It compares with
// the pipeline version (snapshot) that wrote it; without one it can only
// say "code or variable".
func (e *Engine) codeChange(ctx context.Context, pl *project.Pipeline, b *project.Block, product, part string, vi versionInfo, now string) (cause, reason string) {
	files, err := snapshot.BlockSources(e.project().Dir, b)
	if err != nil {
		return CauseCode, "the code of " + b.ID + " changed"
	}
	curVars := pl.Variables
	unknown := func() (string, string) {
		if len(fingerprint.ReadVars(files, curVars)) == 0 {
			return CauseCode, "the code of " + b.ID + " changed"
		}
		return CauseCodeVariable, "the code of " + b.ID + " or a variable it reads changed"
	}
	hash, err := e.versionSnapshot(ctx, product, part, vi.version)
	if err != nil || hash == "" {
		return unknown()
	}
	pin, err := e.pinnedVersion(hash, pl.ID)
	if err != nil {
		return unknown()
	}
	ob := pin.pl.Block(b.ID)
	if ob == nil {
		return unknown()
	}
	oldFiles, err := snapshot.BlockSources(pin.proj.Dir, ob)
	if err != nil || fingerprint.Block(oldFiles, pin.pl.Variables) != vi.codeHash {
		return unknown()
	}
	if om, nm := fingerprint.BlockModules(oldFiles), fingerprint.BlockModules(files); !slices.Equal(om, nm) &&
		fingerprint.Block(fingerprint.WithModFile(oldFiles, files), curVars) == now {
		return CauseModule, describeModules(om, nm)
	}
	codeSame := fingerprint.Block(oldFiles, curVars) == now
	varsSame := fingerprint.Block(files, pin.pl.Variables) == now
	changed := changedVars(files, pin.pl.Variables, curVars)
	switch {
	case codeSame:
		return CauseVariable, describeVars(changed, pin.pl.Variables, curVars)
	case varsSame || len(changed) == 0:
		return CauseCode, "the code of " + b.ID + " changed"
	default:
		return CauseCodeVariable, "the code of " + b.ID + " changed and " + describeVars(changed, pin.pl.Variables, curVars)
	}
}

// describeModules says which modules changed: "module
// github.com/google/uuid changed (v1.5.0 → v1.6.0)".
func describeModules(before, after []string) string {
	split := func(list []string) map[string]string {
		m := map[string]string{}
		for _, s := range list {
			p, v, _ := strings.Cut(s, " ")
			m[p] = v
		}
		return m
	}
	b, a := split(before), split(after)
	var parts []string
	for _, s := range after {
		p, _, _ := strings.Cut(s, " ")
		if b[p] != a[p] {
			if b[p] == "" {
				parts = append(parts, fmt.Sprintf("module %s is now required (%s)", p, a[p]))
			} else {
				parts = append(parts, fmt.Sprintf("module %s changed (%s → %s)", p, b[p], a[p]))
			}
		}
	}
	for _, s := range before {
		if p, _, _ := strings.Cut(s, " "); a[p] == "" {
			parts = append(parts, fmt.Sprintf("module %s is no longer required", p))
		}
	}
	if len(parts) == 0 {
		return "a module it imports changed"
	}
	return strings.Join(parts, "; ")
}

// changedVars lists the variables the block reads whose values differ.
func changedVars(files []fingerprint.File, before, after map[string]string) []string {
	all := maps.Clone(before)
	maps.Copy(all, after)
	var out []string
	for _, n := range fingerprint.ReadVars(files, all) {
		b, okb := before[n]
		a, oka := after[n]
		if okb != oka || a != b {
			out = append(out, n)
		}
	}
	return out
}

func describeVars(names []string, before, after map[string]string) string {
	if len(names) == 0 {
		return "a variable it reads changed"
	}
	parts := make([]string, 0, len(names))
	for _, n := range names {
		b, okb := before[n]
		a, oka := after[n]
		switch {
		case !okb:
			parts = append(parts, fmt.Sprintf("%s set to %q", n, a))
		case !oka:
			parts = append(parts, fmt.Sprintf("%s unset (was %q)", n, b))
		default:
			parts = append(parts, fmt.Sprintf("%s %q → %q", n, b, a))
		}
	}
	word := "variable "
	if len(names) > 1 {
		word = "variables "
	}
	return word + strings.Join(parts, ", ") + " changed"
}

// versionSnapshot is the pipeline version that wrote one version.
func (e *Engine) versionSnapshot(ctx context.Context, product, part string, version int) (string, error) {
	var hash string
	err := e.wh.DB().QueryRowContext(ctx, `SELECT coalesce(snapshot, '') FROM _strata.versions WHERE product = ? AND partition = ? AND version = ?`, product, part, version).Scan(&hash)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return hash, err
}
