package main

import "fmt"

type Board [3][3]rune

func (b Board) Set(r, c int, v rune) Board {
	b[r][c] = v
	return b
}

func (b *Board) Place(r, c int, v rune) { b[r][c] = v }

func (b Board) String() string {
	s := ""
	for _, row := range b {
		for _, c := range row {
			if c == 0 {
				c = '.'
			}
			s += string(c)
		}
		s += "\n"
	}
	return s
}

func winner(b Board) rune {
	lines := [][3][2]int{
		{{0, 0}, {0, 1}, {0, 2}}, {{1, 0}, {1, 1}, {1, 2}}, {{2, 0}, {2, 1}, {2, 2}},
		{{0, 0}, {1, 0}, {2, 0}}, {{0, 1}, {1, 1}, {2, 1}}, {{0, 2}, {1, 2}, {2, 2}},
		{{0, 0}, {1, 1}, {2, 2}}, {{0, 2}, {1, 1}, {2, 0}},
	}
	for _, l := range lines {
		a, b2, c := b[l[0][0]][l[0][1]], b[l[1][0]][l[1][1]], b[l[2][0]][l[2][1]]
		if a != 0 && a == b2 && b2 == c {
			return a
		}
	}
	return 0
}

type Snapshot struct {
	Vals [4]int
	Tag  string
}

func main() {
	var b Board
	b2 := b.Set(1, 1, 'X')
	fmt.Print(b.String(), "--\n", b2.String())
	b.Place(0, 0, 'O')
	b.Place(1, 1, 'O')
	b.Place(2, 2, 'O')
	fmt.Printf("winner %c %v\n", winner(b), winner(b2) == 0)

	hist := []Snapshot{}
	cur := Snapshot{Tag: "s"}
	for i := 0; i < 3; i++ {
		cur.Vals[i] = i + 1
		hist = append(hist, cur)
	}
	fmt.Println(hist)
	hist[0].Vals[3] = 99
	fmt.Println(hist[0], cur)

	arr := [5]int{1, 2, 3, 4, 5}
	sl := arr[1:4]
	sl[0] = 20
	cp := arr
	cp[4] = 50
	fmt.Println(arr, sl, cp, len(sl), cap(sl))
	for i, v := range arr {
		arr[4-i] = v
	}
	fmt.Println(arr)
	parr := &arr
	for i := range parr {
		parr[i] *= 2
	}
	fmt.Println(arr, len(parr))
	m := map[[2]string]int{{"a", "b"}: 1}
	k := [2]string{"a", "b"}
	m[k]++
	k[1] = "c"
	m[k] = 5
	fmt.Println(m[[2]string{"a", "b"}], m[[2]string{"a", "c"}], len(m))
	x := [...]string{2: "two", 5: "five"}
	fmt.Println(len(x), x, x == [6]string{2: "two", 5: "five"})
	var matrix [3][3]int
	for i := range matrix {
		matrix[i][i] = 1
	}
	row := matrix[1]
	row[0] = 7
	fmt.Println(matrix, row)
	fn := func(a [3]int) { a[0] = -1 }
	fn(matrix[0])
	fmt.Println(matrix[0])
}
