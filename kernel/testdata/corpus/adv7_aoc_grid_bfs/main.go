package main

import (
	"bufio"
	"fmt"
	"strings"
)

type point struct{ r, c int }

func (p point) add(q point) point { return point{p.r + q.r, p.c + q.c} }

var dirs = [4]point{{-1, 0}, {0, 1}, {1, 0}, {0, -1}}

const maze = `S..#......
.#.#.####.
.#...#..#.
.####.#.#.
......#..E`

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

func bfs(grid [][]byte, start, end point) (int, map[point]point) {
	dist := map[point]int{start: 0}
	prev := map[point]point{}
	queue := []point{start}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if cur == end {
			return dist[cur], prev
		}
		for _, d := range dirs {
			n := cur.add(d)
			if n.r < 0 || n.r >= len(grid) || n.c < 0 || n.c >= len(grid[n.r]) {
				continue
			}
			if grid[n.r][n.c] == '#' {
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
	return -1, nil
}

func main() {
	grid, start, end := parse(maze)
	fmt.Println("start", start, "end", end, "rows", len(grid))
	n, prev := bfs(grid, start, end)
	fmt.Println("steps:", n)
	for p := prev[end]; p != start; p = prev[p] {
		grid[p.r][p.c] = '*'
	}
	for _, row := range grid {
		fmt.Println(string(row))
	}
	visited := map[[2]int]bool{}
	for p := range prev {
		visited[[2]int{p.r, p.c}] = true
	}
	fmt.Println("visited", len(visited), visited[[2]int{0, 1}], visited[[2]int{9, 9}])
}
