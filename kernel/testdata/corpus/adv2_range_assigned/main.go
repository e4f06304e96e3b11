package main

import (
	"fmt"
	"strings"
)

type Cursor struct {
	Line int
	Text string
}

type Stats struct {
	LastKey string
	Count   int
}

// indexOf uses the loop variable after the loop: the index a break left.
func indexOf(words []string, target string) int {
	i := -1
	for i = range words {
		if words[i] == target {
			break
		}
	}
	return i
}

func lastNonEmpty(lines []string) (int, string) {
	var n int
	var line string
	for n, line = range lines {
		if strings.TrimSpace(line) == "" {
			break
		}
	}
	return n, line
}

func main() {
	words := strings.Fields("alpha beta gamma delta")
	fmt.Println(indexOf(words, "gamma"), indexOf(words, "zeta"))
	fmt.Println(lastNonEmpty([]string{"a", "b", "  ", "c"}))

	var cur Cursor
	for cur.Line, cur.Text = range []string{"first", "second", "third"} {
		if cur.Text == "second" {
			break
		}
	}
	fmt.Printf("%+v\n", cur)

	var st Stats
	scores := map[string]int{"only": 3}
	for st.LastKey = range scores {
		st.Count++
	}
	fmt.Println(st)

	ch := make(chan string, 3)
	ch <- "x"
	ch <- "y"
	ch <- "z"
	close(ch)
	last := "none"
	for last = range ch {
	}
	fmt.Println("drained, last", last)

	var r rune
	var at int
	for at, r = range "héllo, wörld" {
		if r == 'ö' {
			break
		}
	}
	fmt.Println(at, string(r))

	seen := map[string]int{}
	for seen["idx"] = range []bool{true, false, true, true} {
	}
	fmt.Println(seen)

	var p *Cursor = &Cursor{}
	for (*p).Line = range []int{7, 8, 9} {
	}
	fmt.Println(*p)

	var idx int
	var fns []func() int
	for idx = range []string{"a", "b", "c"} {
		fns = append(fns, func() int { return idx * 10 })
	}
	fmt.Println(fns[0](), fns[2](), idx)

	row, col := -1, -1
	grid := [][]int{{1, 2}, {3, 4}, {5, 6}}
	for row = range grid {
		for col = range grid[row] {
			if grid[row][col] == 4 {
				break
			}
		}
		if grid[row][col] == 4 {
			break
		}
	}
	fmt.Println("found 4 at", row, col)
}
