package main

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

type P struct{ X, Y int }

type Counter struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *Counter) Inc(k string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n[k]++
}

var ErrNotFound = errors.New("not found")

func lookup(k string) (int, error) {
	if k == "" {
		return 0, fmt.Errorf("lookup %q: %w", k, ErrNotFound)
	}
	return len(k), nil
}

func divide(a, b int) (q int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered: %v", r)
		}
	}()
	return a / b, nil
}

func gen() func() int {
	n := 0
	return func() int { n++; return n }
}

func classify(n int) string {
	switch {
	case n < 0:
		return "neg"
	case n == 0:
		fallthrough
	case n == 1:
		return "small"
	default:
		return "big"
	}
}

func main() {
	arr := []P{{1, 2}, {3, 4}}
	for _, v := range arr {
		v.X = 100
	}
	fmt.Println(arr)
	for i := range arr {
		p := &arr[i]
		p.Y *= 10
	}
	fmt.Println(arr)
	a := []int{1, 2, 3}
	b := a[:2]
	b = append(b, 9)
	fmt.Println(a, b, len(b), cap(b))
	c := make([]int, 2)
	n := copy(c, a)
	fmt.Println(c, n)

	cnt := &Counter{n: map[string]int{}}
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cnt.Inc(strconv.Itoa(i % 3))
		}()
	}
	wg.Wait()
	fmt.Println(cnt.n)

	_, err := lookup("")
	fmt.Println(err, errors.Is(err, ErrNotFound), errors.Unwrap(err) == ErrNotFound)
	q, err := divide(1, 0)
	fmt.Println(q, err)

	g := gen()
	g()
	g()
	fmt.Println(g())

	for _, n := range []int{-1, 0, 1, 5} {
		fmt.Print(classify(n), " ")
	}
	fmt.Println()

outer:
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			if j == 2 {
				continue outer
			}
			if i == 2 {
				break outer
			}
			fmt.Print(i, j, ";")
		}
	}
	fmt.Println()

	i := 0
loop:
	if i < 3 {
		i++
		goto loop
	}
	fmt.Println("goto", i)

	var fns []func()
	for i := 0; i < 3; i++ {
		defer func() { fmt.Println("defer", i) }()
		fns = append(fns, func() { fmt.Print(i) })
	}
	for _, f := range fns {
		f()
	}
	fmt.Println()

	fmt.Println(P{1, 2} == P{1, 2}, [2]int{1, 2} == [2]int{1, 2})
	var x, y any = P{1, 2}, P{1, 2}
	fmt.Println(x == y)
	keys := map[[2]int]string{{1, 2}: "a", {3, 4}: "b"}
	fmt.Println(keys[[2]int{3, 4}], len(keys))
	fmt.Println(map[string]int{"b": 2, "a": 1, "c": 3})
	fmt.Printf("%q %q %x %X %08.3f %-5s| %5d|\n", "hi\n", 'x', "hi", 255, 3.14159, "ab", 42)
	fmt.Printf("%v %s %d\n", 90*time.Minute, time.Duration(1500)*time.Millisecond, time.Second)
	people := []struct {
		Name string
		Age  int
	}{{"a", 30}, {"b", 20}, {"c", 30}, {"d", 20}}
	sort.SliceStable(people, func(i, j int) bool { return people[i].Age < people[j].Age })
	fmt.Println(people)
	r := strings.NewReplacer("a", "1", "b", "2")
	fmt.Println(r.Replace("abcab"))
	fmt.Println(strconv.Quote("tab\t"), strconv.FormatFloat(1.0/3, 'g', 5, 64), strconv.FormatInt(-255, 16))
	v, err := strconv.Atoi("12a")
	fmt.Println(v, err)
	var sb strings.Builder
	for i := range 3 {
		fmt.Fprintf(&sb, "[%d]", i)
	}
	fmt.Println(sb.String(), sb.Len())
	bs := []byte("héllo")
	fmt.Println(len(bs), len([]rune("héllo")), string(bs[1:3]), bs[0])
	var u8 uint8 = 200
	var i8 int8 = 127
	i8++
	fmt.Println(u8*2, i8, ^0, 7&^5, -8>>1, uint32(1)<<31)
	const big = 1 << 40
	fmt.Println(big/1024, float64(big)/3)
	fmt.Fprintln(os.Stdout, "to stdout")
	m := map[string]P{"a": {1, 1}}
	pp := m["a"]
	pp.X = 9
	fmt.Println(m, pp)
	ms := map[string][]int{}
	ms["k"] = append(ms["k"], 1, 2)
	fmt.Println(ms)
	ch := make(chan int, 3)
	for i := 0; i < 3; i++ {
		ch <- i * i
	}
	close(ch)
	for v := range ch {
		fmt.Print(v, ",")
	}
	fmt.Println()
	select {
	case v, ok := <-ch:
		fmt.Println("closed", v, ok)
	default:
		fmt.Println("default")
	}
}
