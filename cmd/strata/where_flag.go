package main

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// whereFlag reads repeated --where DIM=V1,V2 into the engine's selection of
// a backfill's cells. Writing one dimension twice adds to its values.
type whereFlag struct{ m map[string][]string }

func (w *whereFlag) String() string {
	if w == nil {
		return ""
	}
	return strings.TrimPrefix(whereText(w.m), " where ")
}

func (w *whereFlag) Set(s string) error {
	name, vals, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return fmt.Errorf("%q: want DIMENSION=VALUE[,VALUE…] such as region=eu,us", s)
	}
	if w.m == nil {
		w.m = map[string][]string{}
	}
	for _, v := range strings.Split(vals, ",") {
		if v = strings.TrimSpace(v); v == "" {
			return fmt.Errorf("%q: an empty value: want DIMENSION=VALUE[,VALUE…] such as region=eu,us", s)
		}
		if !slices.Contains(w.m[name], v) {
			w.m[name] = append(w.m[name], v)
		}
	}
	return nil
}

// whereText renders a selection for a plan's or a launch's first line:
// " where region=eu,us customer=@new" (empty without one).
func whereText(m map[string][]string) string {
	if len(m) == 0 {
		return ""
	}
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, k := range names {
		parts[i] = k + "=" + strings.Join(m[k], ",")
	}
	return " where " + strings.Join(parts, " ")
}
