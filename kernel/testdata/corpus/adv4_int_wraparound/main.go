// Fixed-size integer arithmetic wraps; shifts by large counts give 0 (or -1
// for negative signed values); conversions truncate.
package main

import (
	"fmt"
	"math"
)

func main() {
	var i8 int8 = 127
	i8++
	fmt.Println(i8)
	var u8 uint8 = 0
	u8--
	fmt.Println(u8)
	var u16 uint16 = 65535
	u16 += 2
	fmt.Println(u16)
	var i32 int32 = math.MaxInt32
	i32 *= 2
	fmt.Println(i32)
	var i64 int64 = math.MinInt64
	fmt.Println(-i64, i64-1)
	x := math.MinInt64
	fmt.Println(x/-1, x%-1)

	v := 300
	fmt.Println(int8(v), uint8(v), int16(v*250), uint32(int64(-v)))
	f := -3.9
	fmt.Println(int(f), int(-f), uint8(int(f)))

	var u uint64 = 1
	for _, s := range []uint{0, 1, 63, 64, 65, 200} {
		fmt.Print(u<<s, " ")
	}
	fmt.Println()
	neg := int64(-8)
	for _, s := range []uint{1, 3, 63, 64, 100} {
		fmt.Print(neg>>s, " ")
	}
	fmt.Println()
	var b byte = 0x81
	fmt.Println(b<<1, b>>1, ^b, b&^0x01, int8(b)>>1)
	var h uint32 = 2166136261
	for _, c := range []byte("strata") {
		h ^= uint32(c)
		h *= 16777619
	}
	fmt.Println(h)
	fmt.Println(-7/2, -7%2, 7%-2, -7>>1)
	var m uint = 3
	fmt.Println(m-5 > m, ^uint32(0), ^0)
}
