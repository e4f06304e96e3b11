package main

import (
	"fmt"
	"math"
	"strings"
)

const banner = `Report
  line two	(tab)
"quoted" and \n not escaped`

const (
	million        = 1_000_000
	mask           = 0b1010_1010
	perm           = 0o755
	oldOctal       = 0755
	hexVal         = 0xFF_FF
	quarter        = 0x1p-2
	avogadro       = 6.022_140_76e23
	sci      int64 = 1e9
)

func main() {
	fmt.Println(banner)
	fmt.Println(strings.Count(banner, "\n"), len(banner))
	fmt.Println(million, mask, perm, oldOctal, hexVal, quarter, avogadro, sci)
	fmt.Println('a', '\x41', '\u00e9', '\U0001F600', '\'', '\\', '\t')
	fmt.Println("\x41\u00e9\U0001F600\a\b\f\v"[0:1], len("\U0001F600"), "\101\102")
	var n int = 1e3
	var f32 float32 = 1 / 3.0
	var u8 uint8 = 'z'
	fmt.Println(n, f32, u8, 07, 0x_1F, 1_0.5e1_0)
	fmt.Println(math.MaxInt8, math.MinInt16, math.MaxUint16, math.SmallestNonzeroFloat64 > 0)
	π := math.Pi
	größe := 2.0
	fmt.Printf("%.5f %.1f\n", π*größe, größe)
	x := []string{
		"trailing",
		"commas",
	}
	m := map[string][]int{
		"a": {1, 2},
		"b": nil,
	}
	arr := [...]string{2: "c", 0: "a"}
	idx := [5]int{1, 3: 4}
	fmt.Println(x, m, len(arr), arr, idx)
	type pt struct{ X, Y int }
	pts := []*pt{{1, 2}, {Y: 5}}
	mp := map[pt]string{{1, 2}: "a", {0, 0}: "origin"}
	fmt.Println(*pts[0], *pts[1], mp[pt{}], len(mp))
	nested := [][]pt{{{1, 1}}, {{2, 2}, {3, 3}}}
	fmt.Println(nested, len(nested[1]))
	s := "multi" +
		"line" +
		"concat"
	fmt.Println(s, len(s))
	fmt.Println(`raw\tstring`, "`backtick`", `"q"`)
	var (
		a, b = 1, "two"
		c    float64
	)
	fmt.Println(a, b, c)
	fmt.Println(0.1+0.2 == 0.3, float64(0.1)+0.2 == 0.3)
	fmt.Println(7/2, -7/2, 7.0/2, 1<<10, 1e2, 100.0)
}
