package main

import (
	"fmt"
	"sort"
	"strings"
)

// Handler may publish further events on the bus it is given.
type Handler func(b *Bus, payload string)

type Bus struct {
	handlers map[string][]Handler
	log      []string
}

func (b *Bus) On(topic string, h Handler) {
	if b.handlers == nil {
		b.handlers = map[string][]Handler{}
	}
	b.handlers[topic] = append(b.handlers[topic], h)
}

func (b *Bus) Emit(topic, payload string) {
	b.log = append(b.log, topic+":"+payload)
	for _, h := range b.handlers[topic] {
		h(b, payload)
	}
}

// Step is one state of a tiny parser; it returns the next one.
type Step func(s *scanner) Step

type scanner struct {
	in    []string
	words []string
	nums  int
}

func scanWord(s *scanner) Step {
	if len(s.in) == 0 {
		return nil
	}
	w := s.in[0]
	s.in = s.in[1:]
	if strings.ContainsAny(w, "0123456789") {
		s.nums++
		return scanWord
	}
	s.words = append(s.words, w)
	return scanWord
}

// Menu maps a key to the submenu it opens.
type Menu map[string]func() Menu

func main() {
	var bus Bus
	bus.On("order", func(b *Bus, p string) { b.Emit("invoice", "inv-"+p) })
	bus.On("order", func(b *Bus, p string) { b.Emit("email", "thanks for "+p) })
	bus.On("invoice", func(b *Bus, p string) { b.Emit("email", "your "+p) })
	bus.Emit("order", "42")
	fmt.Println(strings.Join(bus.log, " | "))
	topics := make([]string, 0, len(bus.handlers))
	for t := range bus.handlers {
		topics = append(topics, t)
	}
	sort.Strings(topics)
	fmt.Println(topics, len(bus.handlers["order"]))

	s := &scanner{in: strings.Fields("go 1 is 22 fun x3")}
	steps := 0
	for st := Step(scanWord); st != nil; st = st(s) {
		steps++
	}
	fmt.Println(s.words, s.nums, steps)

	var root Menu
	sub := Menu{"back": func() Menu { return root }}
	root = Menu{"file": func() Menu { return sub }, "quit": func() Menu { return nil }}
	cur := root
	for _, k := range []string{"file", "back", "file", "back", "quit"} {
		cur = cur[k]()
		fmt.Print(k, "->", len(cur), " ")
	}
	fmt.Println()
}
