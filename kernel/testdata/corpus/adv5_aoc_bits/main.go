package main

import (
	"fmt"
	"strconv"
	"strings"
)

const report = `00100
11110
10110
10111
10101
01111
00111
11100
10000
11001
00010
01010`

func mostCommon(lines []string, pos int) byte {
	ones := 0
	for _, l := range lines {
		if l[pos] == '1' {
			ones++
		}
	}
	if ones*2 >= len(lines) {
		return '1'
	}
	return '0'
}

func filter(lines []string, keepMost bool) int64 {
	cur := append([]string(nil), lines...)
	for pos := 0; len(cur) > 1; pos++ {
		want := mostCommon(cur, pos)
		if !keepMost {
			want ^= 1 // '0' <-> '1'
		}
		next := cur[:0:0]
		for _, l := range cur {
			if l[pos] == want {
				next = append(next, l)
			}
		}
		cur = next
	}
	v, _ := strconv.ParseInt(cur[0], 2, 64)
	return v
}

func main() {
	lines := strings.Fields(report)
	width := len(lines[0])
	var gamma, epsilon uint
	for pos := 0; pos < width; pos++ {
		gamma <<= 1
		epsilon <<= 1
		if mostCommon(lines, pos) == '1' {
			gamma |= 1
		} else {
			epsilon |= 1
		}
	}
	fmt.Printf("gamma=%d (%05b) epsilon=%d power=%d\n", gamma, gamma, epsilon, gamma*epsilon)
	mask := uint(1)<<width - 1
	fmt.Println(gamma^mask == epsilon, ^gamma&mask)
	o2, co2 := filter(lines, true), filter(lines, false)
	fmt.Println("oxygen", o2, "co2", co2, "life", o2*co2)
}
