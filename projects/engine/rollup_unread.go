package engine

import (
	"fmt"
	"slices"
	"sort"
	"time"
)

// A version records the upstream versions it read, so a rewritten upstream
// makes it stale. A rollup (a week over its days) can also be missing days:
// ones that did not exist when it was computed and became current later,
// for instance days an atomic backfill promoted after keep-newer kept the
// week a plain run of one day had made. Comparing the versions it read
// sees nothing wrong there; comparing its range with the upstream's
// current partitions does.

// partStart is one current partition of a product, for range lookups.
type partStart struct {
	start time.Time
	key   string
}

// indexStarts sorts each product's current partitions by start.
func indexStarts(current map[string]map[string]versionInfo) map[string][]partStart {
	out := make(map[string][]partStart, len(current))
	for prod, parts := range current {
		list := make([]partStart, 0, len(parts))
		for k, vi := range parts {
			list = append(list, partStart{vi.start, k})
		}
		sort.Slice(list, func(i, j int) bool {
			if !list[i].start.Equal(list[j].start) {
				return list[i].start.Before(list[j].start)
			}
			return list[i].key < list[j].key
		})
		out[prod] = list
	}
	return out
}

// unreadUpstream names a current partition of a product the version read
// that lies inside the version's own partition but was not read: the
// version was computed without it. A version whose partition is no wider
// than its upstream's has read the one partition in its range, so only
// rollups can be found this way.
func (pd *planData) unreadUpstream(vi versionInfo) string {
	if !vi.start.Before(vi.end) {
		return "" // an unpartitioned product (or no bounds recorded)
	}
	for prod, read := range vi.upstream {
		if vi.inputs != nil && !slices.Contains(vi.inputs, prod) {
			continue // read with ctx.Product: the range says nothing of what it should have read
		}
		list := pd.starts[prod]
		i := sort.Search(len(list), func(i int) bool { return !list[i].start.Before(vi.start) })
		for ; i < len(list) && list[i].start.Before(vi.end); i++ {
			if _, ok := read[list[i].key]; !ok {
				cur := pd.current[prod][list[i].key]
				return fmt.Sprintf("upstream %s %s (v%d) is current but was not read: it was published after this version was computed", prod, list[i].key, cur.version)
			}
		}
	}
	return ""
}
