package main

import (
	"fmt"
	"math"
)

func main() {
	var a int8 = 127
	a++
	fmt.Println("int8 wrap", a)
	var b uint8 = 0
	b--
	fmt.Println("uint8 wrap", b)
	var c int32 = math.MaxInt32
	c += 10
	fmt.Println("int32", c)
	var d int64 = math.MaxInt64
	d++
	fmt.Println("int64", d, d == math.MinInt64)
	var u uint = 3
	fmt.Println("uint sub", u-5)

	x := 300
	fmt.Println("conv", uint8(x), int8(x), int16(x*233), uint16(int32(-x)))
	f := 3.99
	fmt.Println("float->int", int(f), int(-f), int64(1e18), uint8(int(f)*100))
	p, q := int32(1<<20), int16(200)
	fmt.Println("mul", p*int32(1<<12), q*q)

	h := uint32(2166136261)
	for _, ch := range []byte("hello") {
		h ^= uint32(ch)
		h *= 16777619
	}
	fmt.Println("fnv", h)

	var acc uint64 = 1
	for i := 1; i <= 25; i++ {
		acc *= uint64(i)
	}
	fmt.Println("25! mod 2^64", acc)
	fmt.Println("neg mod", -7%3, -7/2, 7>>1, -7>>1)
	fmt.Println("abs minint", -math.MinInt64 == math.MinInt64)
	m := math.MinInt64
	fmt.Println(-m, m/-1)
	fmt.Printf("%08b %x %X %o %#x\n", uint8(200), -255, 255, 8, 255)
	fmt.Println(math.Inf(1), -math.Inf(1), math.NaN() == math.NaN(), 0.1+0.2)
	var z float64
	fmt.Println(1/z, -1/z, z/z)
}
