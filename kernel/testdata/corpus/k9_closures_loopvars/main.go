package main

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

func counter() (func() int, func()) {
	n := 0
	return func() int { n++; return n }, func() { n = 0 }
}

func main() {
	var fs []func() string
	for _, w := range []string{"a", "b", "c"} {
		fs = append(fs, func() string { return strings.Repeat(w, 2) })
	}
	for i := 0; i < 3; i++ {
		fs = append(fs, func() string { return fmt.Sprint(i * 10) })
	}
	for _, f := range fs {
		fmt.Print(f(), " ")
	}
	fmt.Println()

	results := make([]int, 5)
	var wg sync.WaitGroup
	for i := range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = i * i
		}()
	}
	wg.Wait()
	fmt.Println(results)

	var mu sync.Mutex
	seen := map[string]int{}
	for i, s := range []string{"x", "y", "z"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			seen[s] = i
			mu.Unlock()
		}()
	}
	wg.Wait()
	keys := []string{}
	for k, v := range seen {
		keys = append(keys, fmt.Sprintf("%s=%d", k, v))
	}
	sort.Strings(keys)
	fmt.Println(keys)

	next, reset := counter()
	next()
	next()
	fmt.Println(next())
	reset()
	fmt.Println(next())

	handlers := map[string]func(int) int{}
	for _, op := range []struct {
		name string
		k    int
	}{{"add", 3}, {"mul", 4}} {
		if op.name == "add" {
			handlers[op.name] = func(x int) int { return x + op.k }
		} else {
			handlers[op.name] = func(x int) int { return x * op.k }
		}
	}
	fmt.Println(handlers["add"](10), handlers["mul"](10))

	var cleanups []string
	for i := 0; i < 3; i++ {
		func() {
			defer func() { cleanups = append(cleanups, fmt.Sprint("done", i)) }()
			cleanups = append(cleanups, fmt.Sprint("work", i))
		}()
	}
	fmt.Println(cleanups)
}
