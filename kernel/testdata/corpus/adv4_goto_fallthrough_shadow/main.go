// goto and labels, switch fallthrough, labeled continue, and shadowing in
// if/else chains and nested blocks.
package main

import (
	"errors"
	"fmt"
	"strconv"
)

func classify(n int) string {
	out := ""
	switch {
	case n < 0:
		out += "neg "
		fallthrough
	case n == 0:
		out += "small "
	case n > 100:
		out += "big "
		fallthrough
	case n > 10:
		out += "medium "
		fallthrough
	default:
		out += "any"
	}
	return out
}

func retry(attempts int) (tries int) {
again:
	tries++
	if tries < attempts {
		goto again
	}
	return
}

func findPair(grid [][]int, target int) (int, int) {
outer:
	for i, row := range grid {
		for j, v := range row {
			if v < 0 {
				continue outer
			}
			if v == target {
				return i, j
			}
		}
	}
	return -1, -1
}

var x = "package"

func main() {
	for _, n := range []int{-5, 0, 5, 50, 500} {
		fmt.Println(n, classify(n))
	}
	fmt.Println(retry(4), retry(0))
	fmt.Println(findPair([][]int{{1, -1, 7}, {2, 7}, {7}}, 7))

	x := 1
	if x := "if"; x != "" {
		fmt.Println(x)
	} else if y := len(x); y > 0 {
		fmt.Println(y)
	}
	{
		x := x * 10
		x++
		fmt.Println(x)
	}
	fmt.Println(x)
	var err error
	if n, err := strconv.Atoi("zz"); err != nil {
		fmt.Println("inner err set", n, err != nil)
	}
	fmt.Println("outer err still nil:", err == nil)
	n, err := strconv.Atoi("12")
	if err == nil {
		n, err := n*2, errors.New("shadow")
		_ = err
		fmt.Println(n)
	}
	fmt.Println(n, err)

	i := 0
loop:
	if i < 3 {
		fmt.Print("g", i, " ")
		i++
		goto loop
	}
	fmt.Println()
	switch y := 3; y {
	case 1, 2:
		fmt.Println("low")
	case 3:
		if y > 2 {
			break
		}
		fmt.Println("unreachable")
	}
	for j := 0; j < 6; j++ {
		switch {
		case j%2 == 0:
			continue
		case j == 5:
			break
		}
		fmt.Print(j, " ")
	}
	fmt.Println()
}
