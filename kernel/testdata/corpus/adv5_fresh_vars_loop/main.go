package main

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

type Click struct{ X, Y int }
type Key struct{ Code rune }

// handlers builds one callback per event; each must keep its own event.
func handlers(events []any) []func() string {
	var out []func() string
	for _, ev := range events {
		switch e := ev.(type) {
		case Click:
			out = append(out, func() string { return fmt.Sprintf("click at %d,%d", e.X, e.Y) })
		case Key:
			out = append(out, func() string { return fmt.Sprintf("key %q", e.Code) })
		default:
			out = append(out, func() string { return fmt.Sprintf("unknown %v", e) })
		}
	}
	return out
}

type job struct {
	id   int
	text string
}

func main() {
	for _, h := range handlers([]any{Click{1, 2}, Key{'a'}, Click{3, 4}, "scroll", Key{'b'}, 42}) {
		fmt.Println(h())
	}

	overrides := map[string]int{"retries": 5, "timeout": 30}
	var hooks []func() string
	for _, name := range []string{"retries", "verbose", "timeout"} {
		if v, ok := overrides[name]; ok {
			hooks = append(hooks, func() string { return fmt.Sprint(name, "=", v) })
		} else {
			hooks = append(hooks, func() string { return fmt.Sprint(name, " default, found ", ok) })
		}
	}
	for _, h := range hooks {
		fmt.Println(h())
	}

	prices := map[string]float64{"pen": 1.5, "pad": 3}
	var found []*float64
	for _, item := range []string{"pen", "ink", "pad"} {
		p, ok := prices[item]
		if !ok {
			continue
		}
		found = append(found, &p)
	}
	for _, p := range found {
		fmt.Print(*p, " ")
	}
	fmt.Println()

	jobs := make(chan job, 4)
	for i, t := range []string{"alpha", "beta", "gamma", "delta"} {
		jobs <- job{i, t}
	}
	close(jobs)
	results := make([]string, 4)
	var wg sync.WaitGroup
	for {
		select {
		case j, ok := <-jobs:
			if !ok {
				wg.Wait()
				fmt.Println(strings.Join(results, " "))
				goto stats
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[j.id] = strings.ToUpper(j.text)
			}()
		}
	}
stats:
	var seen []string
	values := []any{1, "x", 2.5, "y"}
	var strs []*string
	for _, v := range values {
		s, ok := v.(string)
		if ok {
			strs = append(strs, &s)
		}
	}
	for _, s := range strs {
		seen = append(seen, *s)
	}
	sort.Strings(seen)
	fmt.Println(seen)
}
