package engine

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/stratahq/strata/projects/partitions"
)

// Selecting cells by value after the fact: a review's promote in part
// (PromoteOptions.Only "… where region=eu"). The selection is kept as text
// so that a promotion records exactly what it was asked.

const whereWord = "where "

// withWhere appends where's values to only as " where dim=v,v dim2=v".
func withWhere(only string, where map[string][]string) string {
	if len(where) == 0 {
		return only
	}
	names := make([]string, 0, len(where))
	for k := range where {
		names = append(names, k)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, k := range names {
		parts[i] = k + "=" + strings.Join(where[k], ",")
	}
	return strings.TrimSpace(only + " " + whereWord + strings.Join(parts, " "))
}

// splitOnly cuts a promote's Only into its range and its where part,
// checking the dimensions and values against spec.
func splitOnly(spec partitions.Spec, only string) (string, map[string][]string, error) {
	rng, cond := strings.TrimSpace(only), ""
	if strings.HasPrefix(rng, whereWord) {
		rng, cond = "", rng[len(whereWord):]
	} else if i := strings.Index(rng, " "+whereWord); i >= 0 {
		rng, cond = strings.TrimSpace(rng[:i]), rng[i+1+len(whereWord):]
	}
	if cond == "" {
		return rng, nil, nil
	}
	where := map[string][]string{}
	for _, f := range strings.Fields(cond) {
		name, vals, ok := strings.Cut(f, "=")
		if !ok || name == "" || vals == "" {
			return "", nil, fmt.Errorf("%q: want DIMENSION=VALUE[,VALUE…] such as region=eu,us", f)
		}
		where[name] = append(where[name], strings.Split(vals, ",")...)
	}
	for name, vals := range where {
		d, ok := spec.Dim(name)
		if !ok {
			if !spec.Dimensional() {
				return "", nil, fmt.Errorf("where %s=…: this pipeline has no dimension besides time", name)
			}
			return "", nil, fmt.Errorf("where %s=…: no dimension %q: want one of %s", name, name, strings.Join(spec.DimNames(), ", "))
		}
		for _, v := range vals {
			// A dynamic key set is not loaded here: staged keys are
			// filtered by their text, whatever the key set is now.
			if d.Loaded() && !d.Has(v) {
				return "", nil, fmt.Errorf("where %s=%s: %q is not a value of dimension %s", name, strings.Join(vals, ","), v, name)
			}
		}
	}
	return rng, where, nil
}

// cellMatches reports whether key, a cell of spec's layout (a rollup's
// too: blocks inherit the dimensions), has one of the wanted values of
// every dimension where names.
func cellMatches(spec partitions.Spec, key string, where map[string][]string) bool {
	if len(where) == 0 {
		return true
	}
	parts := strings.Split(key, partitions.KeySep)
	for i, d := range spec.Dims {
		want, ok := where[d.Name]
		if !ok {
			continue
		}
		j := i
		if spec.Interval != partitions.None && i >= spec.TimePos {
			j++
		}
		if j >= len(parts) || !slices.Contains(want, parts[j]) {
			return false
		}
	}
	return true
}
