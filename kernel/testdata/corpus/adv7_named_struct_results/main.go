package main

import (
	"bufio"
	"fmt"
	"strings"
)

type point struct{ r, c int }

type bounds struct {
	min, max point
}

// parse finds the start and end markers of a grid, as an Advent of Code
// solution would, returning them through named results.
func parse(s string) (grid [][]byte, start, end point) {
	sc := bufio.NewScanner(strings.NewReader(s))
	for r := 0; sc.Scan(); r++ {
		line := []byte(sc.Text())
		for c, ch := range line {
			switch ch {
			case 'S':
				start = point{r, c}
			case 'E':
				end = point{r, c}
			}
		}
		grid = append(grid, line)
	}
	return
}

func box(ps []point) (b bounds, ok bool) {
	if len(ps) == 0 {
		return
	}
	b = bounds{ps[0], ps[0]}
	for _, p := range ps[1:] {
		b.min = point{min(b.min.r, p.r), min(b.min.c, p.c)}
		b.max = point{max(b.max.r, p.r), max(b.max.c, p.c)}
	}
	return b, true
}

func origin() (p point) {
	p = point{}
	p.r = 1
	return
}

type config struct {
	name    string
	retries int
}

func defaults() (cfg config, err error) {
	defer func() {
		if cfg.retries == 0 {
			cfg = config{cfg.name, 3}
		}
	}()
	cfg = config{name: "svc"}
	return cfg, nil
}

func main() {
	g, s, e := parse("S.#\n..E\n")
	fmt.Println(len(g), s, e)
	fmt.Println(box([]point{{3, 4}, {1, 7}, {2, 0}}))
	fmt.Println(box(nil))
	fmt.Println(origin())
	fmt.Println(defaults())

	var cur point
	ptr := &cur
	cur = point{5, 6}
	fmt.Println(*ptr, cur)

	last := point{}
	show := func() { fmt.Println("closure sees", last) }
	for i := 0; i < 3; i++ {
		last = point{i, i * i}
	}
	show()
}
