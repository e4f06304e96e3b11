package main

import (
	"container/list"
	"container/ring"
	"fmt"
	"strings"
)

// hitCounter keeps words in most-recently-seen order, with a count each.
type hitCounter struct {
	order *list.List
	index map[string]*list.Element
}

type entry struct {
	word string
}

type countedElem struct {
	list.Element
	label string
}

func (h *hitCounter) See(word string) {
	if e, ok := h.index[word]; ok {
		h.order.MoveToFront(e)
		e.Value = e.Value.(int) + 1
		return
	}
	h.index[word] = h.order.PushFront(1)
}

func main() {
	h := &hitCounter{order: list.New(), index: map[string]*list.Element{}}
	for _, w := range strings.Fields("a b a c b a") {
		h.See(w)
	}
	for _, w := range []string{"a", "b", "c"} {
		fmt.Print(w, "=", h.index[w].Value, " ")
	}
	fmt.Println(h.order.Len())

	window := ring.New(3)
	for i := 1; i <= 5; i++ {
		window.Value = i * i
		window = window.Next()
	}
	sum := 0
	window.Do(func(v any) { sum += v.(int) })
	fmt.Println("last three squares sum to", sum)

	labels := ring.New(2)
	prefix := "item-"
	for i := range 2 {
		labels.Value = prefix + fmt.Sprint(i)
		labels = labels.Next()
	}
	labels.Do(func(v any) { fmt.Print(v, " ") })
	fmt.Println()

	flags := ring.New(1)
	on := false
	flags.Value = !on
	neg := ring.New(1)
	neg.Value = -sum
	fmt.Println(flags.Value, neg.Value)

	var c countedElem
	c.label = "promoted"
	c.Value = len(c.label) * 2
	fmt.Println(c.label, c.Value)
}
