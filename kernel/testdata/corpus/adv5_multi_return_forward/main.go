package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

func divmod(a, b int) (int, int) { return a / b, a % b }

func parsePair(s string) (string, int, error) {
	k, v, ok := strings.Cut(s, "=")
	if !ok {
		return "", 0, errors.New("no = in " + strconv.Quote(s))
	}
	n, err := strconv.Atoi(v)
	return k, n, err
}

func sum(xs ...int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}

func pair() (int, int) { return 3, 4 }
func add(a, b int) int { return a + b }
func wrap() (int, int) { return divmod(17, 5) }
func describe(k string, n int, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	return fmt.Sprintf("%s -> %d", k, n)
}

type Stack struct{ items []int }

func (s *Stack) Pop() (int, bool) {
	if len(s.items) == 0 {
		return 0, false
	}
	v := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return v, true
}

func main() {
	fmt.Println(divmod(17, 5))
	q, r := divmod(-17, 5)
	fmt.Println(q, r)
	fmt.Println(add(pair()), sum(pair()), add(wrap()))
	for _, s := range []string{"a=1", "b=x", "noeq", "c=-3"} {
		fmt.Println(describe(parsePair(s)))
	}
	st := &Stack{items: []int{1, 2}}
	for {
		v, ok := st.Pop()
		if !ok {
			break
		}
		fmt.Print(v, " ")
	}
	fmt.Println(st.Pop())
	var err error
	var n int
	if n, err = strconv.Atoi("42"); err == nil {
		fmt.Println("parsed", n)
	}
	if _, err := strconv.Atoi("zz"); err != nil {
		fmt.Println("inner err:", err)
	}
	fmt.Println("outer err still nil:", err == nil)
	a, b := 1, 2
	a, b = b, a+b
	fmt.Println(a, b)
	x, y, z := func() (int, string, []int) { return 1, "s", []int{2} }()
	fmt.Println(x, y, z)
	m := map[string]int{}
	m["k"], n = divmod(9, 4)
	fmt.Println(m, n)
}
