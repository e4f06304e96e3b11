package main

import (
	"fmt"
	"sort"
	"strings"
)

const input = `
#########
#S..#...#
#.#.#.#.#
#.#...#E#
#########`

type P [2]int

func (p P) add(d P) P { return P{p[0] + d[0], p[1] + d[1]} }

var dirs = [4]P{{0, 1}, {1, 0}, {0, -1}, {-1, 0}}

func main() {
	grid := map[P]byte{}
	var start, end P
	for r, line := range strings.Split(strings.TrimSpace(input), "\n") {
		for c := 0; c < len(line); c++ {
			p := P{r, c}
			grid[p] = line[c]
			switch line[c] {
			case 'S':
				start = p
			case 'E':
				end = p
			}
		}
	}
	dist := map[P]int{start: 0}
	prev := map[P]P{}
	queue := []P{start}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if cur == end {
			break
		}
		for _, d := range dirs {
			n := cur.add(d)
			if grid[n] == '#' || grid[n] == 0 {
				continue
			}
			if _, seen := dist[n]; seen {
				continue
			}
			dist[n] = dist[cur] + 1
			prev[n] = cur
			queue = append(queue, n)
		}
	}
	fmt.Println("start", start, "end", end, "steps", dist[end])
	var path []P
	for p := end; p != start; p = prev[p] {
		path = append(path, p)
	}
	fmt.Println("path length", len(path), "first", path[len(path)-1], "last", path[0])

	// Struct keys made of arrays and strings.
	type key struct {
		name string
		pos  [3]int8
	}
	counts := map[key]int{}
	for _, s := range []string{"a 1 2 3", "b 0 0 0", "a 1 2 3", "a 3 2 1"} {
		var k key
		fmt.Sscanf(s, "%s %d %d %d", &k.name, &k.pos[0], &k.pos[1], &k.pos[2])
		counts[k]++
	}
	keys := make([]key, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].name != keys[j].name {
			return keys[i].name < keys[j].name
		}
		return fmt.Sprint(keys[i].pos) < fmt.Sprint(keys[j].pos)
	})
	for _, k := range keys {
		fmt.Printf("%s %v -> %d\n", k.name, k.pos, counts[k])
	}
	a, b := [2]string{"x", "y"}, [2]string{"x", "y"}
	fmt.Println(a == b, P{1, 2} == P{2, 1}, len(grid))
}
