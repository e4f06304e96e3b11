package sdktest

import (
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

// maxShown bounds the rows a diff lists of each kind.
const maxShown = 10

// Equal fails t, with Diff's text, when got and want differ.
func Equal(t testing.TB, got, want *sdk.Table, keys ...string) {
	t.Helper()
	if d := Diff(got, want, keys...); d != "" {
		t.Errorf("tables differ (-want +got):\n%s", d)
	}
}

// Diff compares two tables and returns "" when they hold the same columns
// (names and types, in any order) and the same rows (in any order), else a
// readable report: the schema difference, then the rows. With keys, rows
// are paired by those columns and a changed row shows its differing values
// (want → got); without, rows are compared whole, as multisets. Floats
// compare exactly: round in the block, or compare a rounded column.
func Diff(got, want *sdk.Table, keys ...string) string {
	if got == nil || want == nil {
		if got == want {
			return ""
		}
		return fmt.Sprintf("one table is nil (got %v, want %v)", got != nil, want != nil)
	}
	var b strings.Builder
	gs, ws := fieldMap(got), fieldMap(want)
	var names []string
	for _, f := range want.Schema() {
		names = append(names, f.Name)
		g, ok := gs[f.Name]
		switch {
		case !ok:
			fmt.Fprintf(&b, "- column %s %s: missing from got\n", f.Name, typeText(f))
		case g.Type != f.Type || g.Scale != f.Scale || g.Precision != f.Precision:
			fmt.Fprintf(&b, "~ column %s: want %s, got %s\n", f.Name, typeText(f), typeText(g))
		}
	}
	for _, f := range got.Schema() {
		if _, ok := ws[f.Name]; !ok {
			fmt.Fprintf(&b, "+ column %s %s: not in want\n", f.Name, typeText(f))
		}
	}
	if b.Len() > 0 {
		return b.String()
	}
	for _, k := range keys {
		if _, ok := ws[k]; !ok {
			return fmt.Sprintf("key column %q is not a column (columns: %s)\n", k, strings.Join(names, ", "))
		}
	}
	if len(keys) == 0 {
		return multisetDiff(got, want, names)
	}
	return keyedDiff(got, want, names, keys)
}

func fieldMap(t *sdk.Table) map[string]sdk.Field {
	out := map[string]sdk.Field{}
	for _, f := range t.Schema() {
		out[f.Name] = f
	}
	return out
}

func typeText(f sdk.Field) string {
	if f.Type == sdk.TypeDecimal {
		return fmt.Sprintf("decimal(%d,%d)", f.Precision, f.Scale)
	}
	return f.Type.String()
}

// rowText is row i of t as "a=1 b=x", columns in names' order.
func rowText(t *sdk.Table, i int, names []string) string {
	parts := make([]string, len(names))
	for j, n := range names {
		parts[j] = n + "=" + valueText(t.Column(n), i)
	}
	return strings.Join(parts, " ")
}

// valueText is a cell's text: exact for floats (shortest round trip),
// RFC 3339 for times, NULL for nulls.
func valueText(c *sdk.Column, i int) string {
	if c.IsNull(i) {
		return "NULL"
	}
	switch v := c.Value(i).(type) {
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case time.Time:
		return v.UTC().Format(time.RFC3339Nano)
	case *big.Int:
		return v.String()
	case string:
		if c.Type == sdk.TypeString {
			return strconv.Quote(v)
		}
		return v
	default:
		return fmt.Sprint(v)
	}
}

func multisetDiff(got, want *sdk.Table, names []string) string {
	count := map[string]int{}
	for i := 0; i < want.Len(); i++ {
		count[rowText(want, i, names)]++
	}
	for i := 0; i < got.Len(); i++ {
		count[rowText(got, i, names)]--
	}
	var missing, extra []string
	for r, n := range count {
		for ; n > 0; n-- {
			missing = append(missing, r)
		}
		for ; n < 0; n++ {
			extra = append(extra, r)
		}
	}
	if len(missing) == 0 && len(extra) == 0 {
		return ""
	}
	sort.Strings(missing)
	sort.Strings(extra)
	var b strings.Builder
	fmt.Fprintf(&b, "%d rows wanted, %d got: %d missing, %d unexpected (rows compared whole)\n", want.Len(), got.Len(), len(missing), len(extra))
	list(&b, "- ", missing)
	list(&b, "+ ", extra)
	return b.String()
}

func keyedDiff(got, want *sdk.Table, names, keys []string) string {
	index := func(t *sdk.Table) (map[string]int, []string) {
		out := map[string]int{}
		var dups []string
		for i := 0; i < t.Len(); i++ {
			k := rowText(t, i, keys)
			if _, dup := out[k]; dup {
				dups = append(dups, k)
			}
			out[k] = i
		}
		return out, dups
	}
	gi, gd := index(got)
	wi, wd := index(want)
	if len(gd) > 0 || len(wd) > 0 {
		return fmt.Sprintf("key (%s) is not unique: %d repeated in want, %d in got (first: %s); pass no keys to compare whole rows\n",
			strings.Join(keys, ", "), len(wd), len(gd), strings.Join(append(wd, gd...)[:1], ""))
	}
	var missing, extra, changed []string
	for k, i := range wi {
		j, ok := gi[k]
		if !ok {
			missing = append(missing, rowText(want, i, names))
			continue
		}
		var diffs []string
		for _, n := range names {
			if a, b := valueText(want.Column(n), i), valueText(got.Column(n), j); a != b {
				diffs = append(diffs, fmt.Sprintf("%s: %s → %s", n, a, b))
			}
		}
		if len(diffs) > 0 {
			changed = append(changed, k+": "+strings.Join(diffs, ", "))
		}
	}
	for k, j := range gi {
		if _, ok := wi[k]; !ok {
			extra = append(extra, rowText(got, j, names))
		}
	}
	if len(missing)+len(extra)+len(changed) == 0 {
		return ""
	}
	sort.Strings(missing)
	sort.Strings(extra)
	sort.Strings(changed)
	var b strings.Builder
	fmt.Fprintf(&b, "%d rows wanted, %d got, by key (%s): %d changed, %d missing, %d unexpected\n", want.Len(), got.Len(), strings.Join(keys, ", "), len(changed), len(missing), len(extra))
	list(&b, "~ ", changed)
	list(&b, "- ", missing)
	list(&b, "+ ", extra)
	return b.String()
}

func list(b *strings.Builder, mark string, rows []string) {
	for i, r := range rows {
		if i == maxShown {
			fmt.Fprintf(b, "%s… %d more\n", mark, len(rows)-maxShown)
			return
		}
		b.WriteString(mark + r + "\n")
	}
}
