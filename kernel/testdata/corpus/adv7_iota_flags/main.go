package main

import (
	"fmt"
	"strings"
)

type Perm uint8

const (
	Read Perm = 1 << iota
	Write
	Exec
	_
	Admin
)

const (
	KB = 1 << (10 * (iota + 1))
	MB
	GB
	TB
)

const (
	a = iota * 10
	b
	_
	d
	e, f = iota, iota * 2
	g, h
)

const (
	lo0, hi0 = iota, iota + 10
	lo1, hi1 = iota, iota + 10
	mid      = iota * 100
	last
)

const (
	Sunday = iota
	Monday
	Tuesday
)

type Level int

const (
	Debug Level = iota - 1
	Info
	Warn
	Error
)

var levelNames = [...]string{"debug", "info", "warn", "error"}

func names(p Perm) string {
	var parts []string
	for _, x := range []struct {
		p Perm
		n string
	}{{Read, "r"}, {Write, "w"}, {Exec, "x"}, {Admin, "A"}} {
		if p&x.p != 0 {
			parts = append(parts, x.n)
		}
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, "")
}

func main() {
	fmt.Println(Read, Write, Exec, Admin)
	p := Read | Exec
	fmt.Println(names(p), names(p|Admin), names(p&^Read), names(0), p&Write == 0)
	p ^= Write
	fmt.Println(names(p), uint8(p), ^p, p<<1)
	fmt.Println(KB, MB, GB, TB/GB)
	fmt.Println(a, b, d, e, f, g, h)
	fmt.Println(Sunday, Monday, Tuesday)
	fmt.Println(lo0, hi0, lo1, hi1, mid, last)
	for l := Debug; l <= Error; l++ {
		fmt.Print(int(l), "=", levelNames[l+1], " ")
	}
	fmt.Println()
	fmt.Println(len(levelNames), Warn > Info)
	const big = 1 << 100
	fmt.Println(big>>98, big/(1<<99))
	const typed int64 = 1<<40 + 3
	fmt.Println(typed, typed%7)
	type Color int
	const (
		Red Color = iota + 1
		Green
		Blue
	)
	fmt.Println(Red, Blue, Green*Blue)
	var mask uint32 = 0xF0F0
	fmt.Printf("%016b %#x %d\n", mask, mask>>4, mask&0xFF)
}
