package main

import (
	"errors"
	"fmt"
	"strings"
	"sync"
)

// Group is a minimal errgroup: the first error wins, every goroutine is waited for.
type Group struct {
	wg   sync.WaitGroup
	once sync.Once
	err  error
}

func (g *Group) Go(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil {
			g.once.Do(func() { g.err = err })
		}
	}()
}

func (g *Group) Wait() error {
	g.wg.Wait()
	return g.err
}

func process(s string) (int, error) {
	if strings.Contains(s, "!") {
		return 0, fmt.Errorf("bad input %q", s)
	}
	return len(s), nil
}

func main() {
	inputs := []string{"alpha", "be", "gamma", "delta!"}
	results := make([]int, len(inputs))
	var g Group
	for i, in := range inputs {
		g.Go(func() error {
			n, err := process(in)
			results[i] = n
			return err
		})
	}
	err := g.Wait()
	fmt.Println(results, err)

	var g2 Group
	var mu sync.Mutex
	seen := map[string]int{}
	for _, w := range strings.Fields("a b a c b a") {
		g2.Go(func() error {
			mu.Lock()
			defer mu.Unlock()
			seen[w]++
			return nil
		})
	}
	fmt.Println(g2.Wait(), seen)

	// Fan-out, fan-in with an ordered result.
	type res struct {
		idx int
		out string
	}
	ch := make(chan res)
	var wg sync.WaitGroup
	words := []string{"go", "is", "fun", "and", "fast"}
	for i, w := range words {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ch <- res{i, strings.ToUpper(w)}
		}()
	}
	go func() { wg.Wait(); close(ch) }()
	ordered := make([]string, len(words))
	for r := range ch {
		ordered[r.idx] = r.out
	}
	fmt.Println(strings.Join(ordered, " "))

	var funcs []func() int
	for i := range 3 {
		funcs = append(funcs, func() int { return i * i })
	}
	for _, f := range funcs {
		fmt.Print(f(), " ")
	}
	fmt.Println()
	fmt.Println(errors.Is(g.Wait(), err))
}
