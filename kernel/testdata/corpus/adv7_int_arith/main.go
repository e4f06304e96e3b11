package main

import (
	"fmt"
	"math"
)

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func mod(a, b int) int { return ((a % b) + b) % b }

func main() {
	fmt.Println(-7/2, -7%2, 7/-2, 7%-2, -7/-2, -7%-2)
	fmt.Println(floorDiv(-7, 2), mod(-7, 3), mod(7, 3), mod(-9, 3))
	fmt.Println(-8>>1, -7>>1, -1>>10, 7>>1, -8<<2)
	var i8 int8 = 127
	i8++
	fmt.Println(i8, -i8, i8-1)
	var u8 uint8 = 0
	u8--
	fmt.Println(u8, u8+2, u8*u8)
	var i32 int32 = math.MaxInt32
	i32 += 10
	fmt.Println(i32)
	var u uint = 3
	fmt.Println(u-5 > 0, int(u)-5)
	var i64 int64 = math.MinInt64
	fmt.Println(i64, -i64, i64/-1, abs(int(i64)))
	x := 1000
	fmt.Println(int8(x), uint8(x), int16(x*100), uint16(-x))
	f := 3.99
	fmt.Println(int(f), int(-f), int64(1e18), uint32(float64(1<<31)))
	fmt.Println(math.MaxUint32, uint32(math.MaxUint32)/2, math.MaxInt8, math.MinInt16)
	h := uint32(2166136261)
	for _, c := range []byte("hello") {
		h ^= uint32(c)
		h *= 16777619
	}
	fmt.Println("fnv", h)
	var hash uint64 = 5381
	for _, c := range "strata" {
		hash = hash<<5 + hash + uint64(c)
	}
	fmt.Println("djb2", hash)
	n := 37
	fmt.Println(n<<3, n>>2, n&7, n|64, n^0xFF, n&^5, ^n)
	var s uint = 70
	fmt.Println(1<<s == 0, uint64(1)<<63, int64(1)<<62)
	sh := 3
	fmt.Println(int8(1)<<sh, uint8(200)>>sh, -16>>sh)
	fmt.Println(math.MaxInt64/3, math.MinInt64%7, 17%-5)
	fmt.Println(0x7fff_ffff, 0b1010_1010, 0o755, 1_000_000)
	a, b := 17, 5
	a, b = a/b, a%b
	fmt.Println(a, b)
	c := 10
	c /= 3
	c *= -2
	c %= 4
	c <<= 3
	c >>= 1
	c &^= 2
	fmt.Println(c)
}
