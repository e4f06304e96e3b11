package main

import (
	"fmt"
	"strings"
)

type Board [3][3]byte

func NewBoard() *Board {
	b := &Board{}
	for r := range b {
		for c := range b[r] {
			b[r][c] = '.'
		}
	}
	return b
}

func (b *Board) Play(r, c int, who byte) { b[r][c] = who }

func (b *Board) String() string {
	var sb strings.Builder
	for r := range b {
		sb.Write(b[r][:])
		sb.WriteByte('\n')
	}
	return sb.String()
}

func (b *Board) Count(who byte) int {
	n := 0
	for _, row := range b {
		for _, cell := range row {
			if cell == who {
				n++
			}
		}
	}
	return n
}

type Ring struct {
	buf  *[4]int
	next int
}

func (r *Ring) Push(v int) {
	r.buf[r.next%len(r.buf)] = v
	r.next++
}

func (r *Ring) Sum() int {
	s := 0
	for i := range r.buf {
		s += r.buf[i]
	}
	return s
}

func main() {
	b := NewBoard()
	b.Play(1, 1, 'X')
	b.Play(0, 2, 'O')
	b.Play(2, 0, 'X')
	fmt.Print(b.String())
	fmt.Println("X:", b.Count('X'), "O:", b.Count('O'))

	r := &Ring{buf: &[4]int{}}
	for i := 1; i <= 6; i++ {
		r.Push(i)
	}
	fmt.Println(r.Sum(), *r.buf)

	names := [3]string{"ann", "bob", "cy"}
	p := &names
	for i := range p {
		p[i] = strings.ToUpper(p[i])
	}
	fmt.Println(p, names)
	for i, n := range p {
		if i == 0 {
			names[2] = "late"
		}
		fmt.Print(n, " ")
	}
	fmt.Println()

	var last int
	var name string
	for last, name = range p {
	}
	fmt.Println(last, name)

	var missing *[5]float64
	steps := 0
	for range missing {
		steps++
	}
	for i := range missing {
		steps += i
	}
	fmt.Println("steps over a nil array pointer:", steps)
}
