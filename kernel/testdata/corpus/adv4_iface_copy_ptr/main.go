// Pointers to the elements of a slice, taken in a loop and stored as an
// interface, point at their own elements. yaegi's interface kept the slot
// the &-expression wrote, which the next iteration overwrote, so every
// element pointed at the last counter: increments went to the wrong rows.
package main

import (
	"fmt"
	"strings"
)

type Counter struct {
	name string
	n    int
}

func (c *Counter) Inc() int { c.n++; return c.n }

type Acc interface{ Inc() int }

type Sink interface {
	Write(string)
	Lines() []string
}

type buf struct{ lines []string }

func (b *buf) Write(s string)  { b.lines = append(b.lines, s) }
func (b *buf) Lines() []string { return b.lines }

func route(sinks map[string]Sink, rows []string) {
	for _, r := range rows {
		key, msg, _ := strings.Cut(r, ":")
		if s, ok := sinks[key]; ok {
			s.Write(msg)
		}
	}
}

func main() {
	counters := []Counter{{name: "a"}, {name: "b"}, {name: "c"}}
	var accs []Acc
	for i := range counters {
		accs = append(accs, &counters[i])
	}
	for i, a := range accs {
		for k := 0; k <= i; k++ {
			a.Inc()
		}
	}
	fmt.Println(counters)

	var accs2 []Acc
	for i := 0; i < len(counters); i++ {
		accs2 = append(accs2, &counters[i])
	}
	accs2[0].Inc()
	fmt.Println(counters)

	bufs := make([]buf, 2)
	sinks := map[string]Sink{}
	for i, name := range []string{"err", "out"} {
		sinks[name] = &bufs[i]
	}
	route(sinks, []string{"err:disk full", "out:42 rows", "err:retry", "debug:skip"})
	fmt.Println(sinks["err"].Lines(), sinks["out"].Lines(), bufs[0].lines)

	var cur *Counter
	var picked []Acc
	for i := range counters {
		cur = &counters[i]
		picked = append(picked, cur)
	}
	picked[0].Inc()
	fmt.Println(counters[0].n, counters[2].n)
}
