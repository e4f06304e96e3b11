package main

import (
	"fmt"
	"sort"
	"strings"
)

type Range struct{ Lo, Hi int }

func (r Range) Contains(o Range) bool { return r.Lo <= o.Lo && o.Hi <= r.Hi }
func (r Range) Overlaps(o Range) bool { return r.Lo <= o.Hi && o.Lo <= r.Hi }
func (r Range) Len() int              { return r.Hi - r.Lo + 1 }

func merge(rs []Range) []Range {
	if len(rs) == 0 {
		return nil
	}
	s := append([]Range(nil), rs...)
	sort.Slice(s, func(i, j int) bool { return s[i].Lo < s[j].Lo })
	out := []Range{s[0]}
	for _, r := range s[1:] {
		last := &out[len(out)-1]
		if r.Lo <= last.Hi+1 {
			last.Hi = max(last.Hi, r.Hi)
			continue
		}
		out = append(out, r)
	}
	return out
}

func main() {
	pairs := `2-4,6-8
2-3,4-5
5-7,7-9
2-8,3-7
6-6,4-6
2-6,4-8`
	contained, overlapping := 0, 0
	var all []Range
	for _, line := range strings.Split(pairs, "\n") {
		var a, b Range
		fmt.Sscanf(line, "%d-%d,%d-%d", &a.Lo, &a.Hi, &b.Lo, &b.Hi)
		if a.Contains(b) || b.Contains(a) {
			contained++
		}
		if a.Overlaps(b) {
			overlapping++
		}
		all = append(all, a, b)
	}
	fmt.Println(contained, overlapping)
	m := merge(all)
	total := 0
	for _, r := range m {
		total += r.Len()
	}
	fmt.Println(m, total, len(all))
	fmt.Println(merge(nil) == nil, merge([]Range{{5, 5}}))
}
