package replay

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/snapshot"
	"github.com/stratahq/strata/projects/warehouse"
)

// WriteText writes the report for a terminal: one line per partition, the
// changed blocks with their first changed rows, failures with their error,
// then the totals and the gates.
func (r *Report) WriteText(w io.Writer) {
	fmt.Fprintf(w, "replay %s: %d partitions, working tree %s, engine %s\n", r.Pipeline, len(r.Partitions), snapshot.Short(r.Snapshot), r.Engine)
	if r.EngineNote != "" {
		fmt.Fprintf(w, "note: %s\n", r.EngineNote)
	}
	for _, p := range r.Partitions {
		fmt.Fprintf(w, "  %-12s %s\n", p.Partition, p.Status)
		for _, b := range p.Blocks {
			switch b.Status {
			case engine.ReplayChanged:
				fmt.Fprintf(w, "      %s: %s\n", engine.ReplayName(b), diffLine(b.Diff))
				writeRows(w, b.Diff)
			case engine.ReplayFailed:
				where := ""
				if b.ErrorLine > 0 {
					where = fmt.Sprintf("%s:%d: ", b.ErrorFile, b.ErrorLine)
				}
				fmt.Fprintf(w, "      %s: failed: %s%s\n", engine.ReplayName(b), where, firstLine(b.Error))
			}
		}
	}
	fmt.Fprintf(w, "%d partitions: %d unchanged, %d changed, %d failed in %s\n", len(r.Partitions), r.Counts.Unchanged, r.Counts.Changed, r.Counts.Failed,
		(time.Duration(r.DurationMS * float64(time.Millisecond))).Round(time.Millisecond))
	for _, g := range r.Gates {
		if g.Passed {
			fmt.Fprintf(w, "expect unchanged %s: passed\n", g.Product)
			continue
		}
		fmt.Fprintf(w, "expect unchanged %s: FAILED (changed in %d partitions%s, failed in %d%s)\n", g.Product,
			len(g.Changed), listed(g.Changed), len(g.Failed), listed(g.Failed))
	}
}

// diffLine summarizes one block's diff.
func diffLine(d *warehouse.PartitionDiff) string {
	if d == nil {
		return "changed"
	}
	s := fmt.Sprintf("%d changed, %d added, %d removed rows (stored v%d: %d rows, replayed: %d rows)",
		d.Counts.Changed, d.Counts.Added, d.Counts.Removed, d.From, d.RowsBefore, d.RowsAfter)
	if !d.Schema.Empty() {
		s += "; schema changed"
	}
	if d.KeyNote != "" {
		s += "; " + d.KeyNote
	}
	return s
}

// writeRows shows a diff's first changed rows, column by column where
// they differ.
func writeRows(w io.Writer, d *warehouse.PartitionDiff) {
	if d == nil {
		return
	}
	for _, rc := range d.Rows {
		switch rc.Kind {
		case warehouse.RowChanged:
			var key, diffs []string
			isKey := map[string]bool{}
			for _, k := range d.Keys {
				isKey[k] = true
			}
			for i, c := range d.RowColumns {
				o, n := rc.Old[i], rc.New[i]
				if isKey[c] {
					key = append(key, fmt.Sprintf("%s=%v", c, show(n)))
				} else if show(o) != show(n) {
					diffs = append(diffs, fmt.Sprintf("%s %v → %v", c, show(o), show(n)))
				}
			}
			fmt.Fprintf(w, "        ~ %s: %s\n", strings.Join(key, " "), strings.Join(diffs, ", "))
		case warehouse.RowAdded:
			fmt.Fprintf(w, "        + %s\n", rowText(d.RowColumns, rc.New))
		case warehouse.RowRemoved:
			fmt.Fprintf(w, "        - %s\n", rowText(d.RowColumns, rc.Old))
		}
	}
	if more := d.Counts.Total() - int64(len(d.Rows)); more > 0 && len(d.Rows) > 0 {
		fmt.Fprintf(w, "        … %d more (--rows N shows more)\n", more)
	}
}

func rowText(cols []string, vals []any) string {
	parts := make([]string, len(cols))
	for i, c := range cols {
		parts[i] = fmt.Sprintf("%s=%v", c, show(vals[i]))
	}
	return strings.Join(parts, " ")
}

func show(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case time.Time:
		return x.UTC().Format(time.RFC3339Nano)
	}
	return fmt.Sprint(v)
}

func listed(parts []string) string {
	switch {
	case len(parts) == 0:
		return ""
	case len(parts) > 5:
		return ": " + strings.Join(parts[:5], ", ") + ", …"
	}
	return ": " + strings.Join(parts, ", ")
}

func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}
