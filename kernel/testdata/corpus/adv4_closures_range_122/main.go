// Go 1.22 loop variables: each iteration has its own, for range and
// three-clause loops alike, for closures, goroutines and pointers.
package main

import (
	"fmt"
	"sort"
	"sync"
)

func main() {
	var fs []func() int
	for i := 0; i < 3; i++ {
		fs = append(fs, func() int { return i * 10 })
	}
	for _, k := range []string{"a", "b", "c"} {
		fs = append(fs, func() int { return len(k) + int(k[0]) })
	}
	for i := range 3 {
		fs = append(fs, func() int { return -i })
	}
	for _, f := range fs {
		fmt.Print(f(), " ")
	}
	fmt.Println()

	var ptrs []*int
	for _, v := range []int{4, 5, 6} {
		ptrs = append(ptrs, &v)
	}
	for _, p := range ptrs {
		fmt.Print(*p, " ")
	}
	fmt.Println()

	var mu sync.Mutex
	var wg sync.WaitGroup
	var got []string
	for _, name := range []string{"x", "y", "z"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			got = append(got, name)
			mu.Unlock()
		}()
	}
	wg.Wait()
	sort.Strings(got)
	fmt.Println(got)

	byKey := map[string]func() string{}
	for k, v := range map[string]int{"one": 1, "two": 2} {
		byKey[k] = func() string { return fmt.Sprint(k, "=", v) }
	}
	fmt.Println(byKey["one"](), byKey["two"]())

	counter := 0
	inc := func() int { counter++; return counter }
	inc()
	inc()
	fmt.Println(counter, inc())
}
