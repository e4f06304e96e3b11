package engine

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/stratahq/strata/projects/partitions"
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
		list := pd.startsOf(prod)
		var like string // a key it read: its cell's values (cellSlice)
		for k := range read {
			like = k
			break
		}
		i := sort.Search(len(list), func(i int) bool { return !list[i].start.Before(vi.start) })
		for ; i < len(list) && list[i].start.Before(vi.end); i++ {
			if _, ok := read[list[i].key]; !ok && sameSlice(list[i].key, like, pd.timePos) {
				cur := pd.current[prod][list[i].key]
				return fmt.Sprintf("upstream %s %s (v%d) is current but was not read: it was published after this version was computed", prod, list[i].key, cur.version)
			}
		}
	}
	return ""
}

// sameSlice reports whether cell keys a and b differ in their time part
// only (at timePos): a week × region rollup of eu reads eu's days, and the
// other regions' days in its range are not days it missed. Calendar keys
// (one part) are always of one slice. Blocks of a pipeline share its key
// layout, and only they are compared here (ctx.Product reads are not).
func sameSlice(a, b string, timePos int) bool {
	if b == "" || !strings.Contains(a, partitions.KeySep) {
		return true
	}
	pa, pb := strings.Split(a, partitions.KeySep), strings.Split(b, partitions.KeySep)
	if len(pa) != len(pb) {
		return true
	}
	for i := range pa {
		if i != timePos && pa[i] != pb[i] {
			return false
		}
	}
	return true
}

// startsOf is pd.starts[prod], sorted on first use: most plans never ask
// (only rollups do), and a plan of millions of cells should not sort them.
func (pd *planData) startsOf(prod string) []partStart {
	pd.startsMu.Lock()
	defer pd.startsMu.Unlock()
	if list, ok := pd.starts[prod]; ok {
		return list
	}
	list := indexStarts(map[string]map[string]versionInfo{prod: pd.current[prod]})[prod]
	if pd.starts == nil {
		pd.starts = map[string][]partStart{}
	}
	pd.starts[prod] = list
	return list
}
