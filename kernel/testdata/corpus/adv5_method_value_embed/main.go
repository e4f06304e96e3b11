package main

import (
	"fmt"
	"sort"
	"strings"
)

type Logger struct {
	prefix string
	lines  []string
}

func (l *Logger) Logf(format string, args ...any) {
	l.lines = append(l.lines, l.prefix+fmt.Sprintf(format, args...))
}

type Service struct {
	*Logger
	name  string
	calls int
}

func (s *Service) Handle(req string) string {
	s.calls++
	s.Logf("%s handled %q (#%d)", s.name, req, s.calls)
	return strings.ToUpper(req)
}

type Counter struct{ hits map[string]int }

func (c Counter) Record(k string) { c.hits[k]++ }

func apply(items []string, f func(string) string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = f(it)
	}
	return out
}

func main() {
	log := &Logger{prefix: "[svc] "}
	svc := &Service{Logger: log, name: "upper"}
	handle := svc.Handle
	logf := svc.Logf
	fmt.Println(apply([]string{"a", "bc"}, handle))
	logf("direct %d", 1)
	svc.Logger = &Logger{prefix: "[new] "}
	logf("after swap %d", 2)
	svc.Logf("via svc %d", 3)
	fmt.Println(strings.Join(log.lines, " | "))
	fmt.Println(strings.Join(svc.lines, " | "))

	c := Counter{hits: map[string]int{}}
	rec := c.Record
	for _, w := range strings.Fields("a b a c a") {
		rec(w)
	}
	keys := make([]string, 0)
	for k := range c.hits {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Print(k, "=", c.hits[k], " ")
	}
	fmt.Println()
	var fns []func(string) string
	for _, p := range []string{"<", "["} {
		l := &Logger{prefix: p}
		fns = append(fns, func(s string) string { l.Logf("%s", s); return l.lines[0] })
	}
	for _, f := range fns {
		fmt.Print(f("x"), " ")
	}
	fmt.Println()
	fmt.Println(svc.calls, len(log.lines))
}
