package main

import (
	"bufio"
	"fmt"
	"strings"
)

const input = `    [D]    
[N] [C]    
[Z] [M] [P]
 1   2   3 

move 1 from 2 to 1
move 3 from 1 to 3
move 2 from 2 to 1
move 1 from 1 to 2`

type Stack []byte

func (s *Stack) Push(b ...byte) { *s = append(*s, b...) }
func (s *Stack) PopN(n int) []byte {
	old := *s
	top := append([]byte(nil), old[len(old)-n:]...)
	*s = old[:len(old)-n]
	return top
}

func parse(in string) ([]Stack, [][3]int) {
	head, moves, _ := strings.Cut(in, "\n\n")
	lines := strings.Split(head, "\n")
	n := (len(lines[len(lines)-1]) + 1) / 4
	stacks := make([]Stack, n)
	for i := len(lines) - 2; i >= 0; i-- {
		for j := 0; j < n; j++ {
			if p := 1 + 4*j; p < len(lines[i]) && lines[i][p] != ' ' {
				stacks[j].Push(lines[i][p])
			}
		}
	}
	var ms [][3]int
	sc := bufio.NewScanner(strings.NewReader(moves))
	for sc.Scan() {
		var m [3]int
		fmt.Sscanf(sc.Text(), "move %d from %d to %d", &m[0], &m[1], &m[2])
		ms = append(ms, m)
	}
	return stacks, ms
}

func run(keepOrder bool) string {
	stacks, moves := parse(input)
	for _, m := range moves {
		crates := stacks[m[1]-1].PopN(m[0])
		if !keepOrder {
			for i, j := 0, len(crates)-1; i < j; i, j = i+1, j-1 {
				crates[i], crates[j] = crates[j], crates[i]
			}
		}
		stacks[m[2]-1].Push(crates...)
	}
	var top strings.Builder
	for _, s := range stacks {
		if len(s) > 0 {
			top.WriteByte(s[len(s)-1])
		}
	}
	return top.String()
}

func main() {
	fmt.Println("part 1:", run(false))
	fmt.Println("part 2:", run(true))
}
