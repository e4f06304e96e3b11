package main

import (
	"errors"
	"fmt"
	"strings"
)

type Number interface {
	~int | ~int64 | ~float64
}

type Matrix[T Number] struct {
	rows, cols int
	data       []T
}

var ErrShape = errors.New("shape mismatch")

func New[T Number](rows, cols int, vals ...T) Matrix[T] {
	m := Matrix[T]{rows: rows, cols: cols, data: make([]T, rows*cols)}
	copy(m.data, vals)
	return m
}

func (m Matrix[T]) At(r, c int) T     { return m.data[r*m.cols+c] }
func (m Matrix[T]) Set(r, c int, v T) { m.data[r*m.cols+c] = v }
func (m Matrix[T]) Shape() (int, int) { return m.rows, m.cols }

func (m Matrix[T]) Mul(o Matrix[T]) (Matrix[T], error) {
	if m.cols != o.rows {
		return Matrix[T]{}, fmt.Errorf("mul %dx%d by %dx%d: %w", m.rows, m.cols, o.rows, o.cols, ErrShape)
	}
	out := New[T](m.rows, o.cols)
	for i := 0; i < m.rows; i++ {
		for j := 0; j < o.cols; j++ {
			var s T
			for k := 0; k < m.cols; k++ {
				s += m.At(i, k) * o.At(k, j)
			}
			out.Set(i, j, s)
		}
	}
	return out, nil
}

func (m Matrix[T]) Transpose() Matrix[T] {
	t := New[T](m.cols, m.rows)
	for i := 0; i < m.rows; i++ {
		for j := 0; j < m.cols; j++ {
			t.Set(j, i, m.At(i, j))
		}
	}
	return t
}

func (m Matrix[T]) String() string {
	var b strings.Builder
	for i := 0; i < m.rows; i++ {
		b.WriteString("[")
		for j := 0; j < m.cols; j++ {
			if j > 0 {
				b.WriteString(" ")
			}
			fmt.Fprintf(&b, "%v", m.At(i, j))
		}
		b.WriteString("]\n")
	}
	return b.String()
}

func Sum[T Number](xs ...T) (s T) {
	for _, x := range xs {
		s += x
	}
	return
}

type Cents int64

func main() {
	a := New(2, 3, 1, 2, 3, 4, 5, 6)
	b := New(3, 2, 7, 8, 9, 10, 11, 12)
	c, err := a.Mul(b)
	fmt.Print(c.String(), err, "\n")
	_, err = a.Mul(a)
	fmt.Println(err, errors.Is(err, ErrShape))
	fmt.Print(a.Transpose().String())
	f := New(2, 2, 0.5, 1.5, 2.0, -1.0)
	sq, _ := f.Mul(f)
	fmt.Print(sq.String())
	r, cc := sq.Shape()
	fmt.Println(r, cc, Sum(f.data...), Sum[Cents](100, 250, 5), Sum[int]())
	id := New[int](3, 3)
	for i := 0; i < 3; i++ {
		id.Set(i, i, 1)
	}
	p, _ := New(1, 3, 4, 5, 6).Mul(id)
	fmt.Print(p.String())
}
