package main

import (
	"fmt"
	"math"
	"math/bits"
)

const (
	KB = 1 << (10 * (iota + 1))
	MB
	GB
)

const big = 1 << 100

type Weekday int

const (
	Sunday Weekday = iota
	Monday
)

func main() {
	var i8 int8 = 127
	i8++
	var u8 uint8 = 0
	u8--
	var i32 int32 = math.MaxInt32
	i32 += 1
	var u uint = 3
	fmt.Println(i8, u8, i32, -u > 0, u-4 > 0)
	x := math.MinInt64
	fmt.Println(x, -x, x/-1 == x)
	fmt.Println(KB, MB, GB, big>>98, big/(1<<99))
	fmt.Println(7/2, -7/2, 7%3, -7%3, 7.0/2, 1<<3|1, 6&^4, ^0)
	var s uint = 65
	fmt.Println(1<<s == 0, int64(1)<<62, u8+uint8(100), i8/int8(-1))
	fmt.Println(Monday+1, Weekday(3)*2, float64(Monday)/2)
	const f = 1.0 / 3
	var f32 float32 = f
	fmt.Println(f, f32, float64(f32) == f, 0.1+0.2, 0.1+0.2 == 0.3)
	a, b := 0.1, 0.2
	fmt.Println(a+b == 0.3, math.Inf(1), -math.Inf(1), math.NaN() == math.NaN())
	fmt.Println(math.Round(2.5), math.Round(-2.5), math.Trunc(-2.7), math.Floor(-2.5), int(a*29), int(-b*14.5))
	fmt.Println(bits.OnesCount(255), bits.LeadingZeros64(1), bits.Reverse8(1))
	fmt.Println(uint32(1<<32-1), int64(math.MaxInt64), uint64(math.MaxUint64))
	var c complex128 = complex(1, 2)
	fmt.Println(c*c, real(c), imag(c))
	fmt.Println(float32(16777217), float64(1e20), 1e21, 1e-7, 123456789.0)
	var z float64
	fmt.Println(1/z, -1/z, z/z == z/z)
	fmt.Printf("%.3f %8.2f|%-8.2f|%e %g %G %x\n", math.Pi, 3.14159, 2.5, 123456.789, 1e-10, 1e21, 3.5)
	fmt.Printf("%d %5d %-5d| %05d %x %X %o %b %c %U\n", 42, 42, 42, -42, 255, 255, 8, 5, 'A', 'é')
	fmt.Printf("%t %v %p\n", true, nil, nil)
	fmt.Printf("%08.3f %+d %+.1e\n", -3.14159, 5, 12345.0)
}
