package main

import (
	"fmt"
	"math"
	"strconv"
)

func main() {
	var i8 int8 = 127
	i8++
	fmt.Println(i8)
	var u8 uint8 = 0
	u8--
	fmt.Println(u8)
	var u32 uint32 = math.MaxUint32
	u32 += 2
	fmt.Println(u32)
	x := math.MaxInt64
	x++
	fmt.Println(x == math.MinInt64)
	var i16 int16 = -32768
	fmt.Println(-i16, i16/-1)
	fmt.Println(7/-2, -7%3, 7>>1, -7>>1, 1<<62, uint64(1)<<63)
	var u uint = 3
	fmt.Println(^u == math.MaxUint-3, ^0, 6&^5, 5^3)
	f := 0.1 + 0.2
	fmt.Println(f, f == 0.3, float32(f), 1/3.0)
	fmt.Println(math.Inf(1), -math.Inf(1), math.NaN(), math.NaN() == math.NaN())
	fmt.Println(math.Round(2.5), math.Round(-2.5), math.Floor(-1.5), math.Trunc(-1.7), int(-f*5))
	fmt.Println(strconv.FormatFloat(1234.5678, 'f', 2, 64), strconv.FormatFloat(1e-7, 'g', -1, 64), strconv.FormatFloat(100, 'e', 3, 32))
	fmt.Println(1e6, 1e21, 123456789.0, float32(0.1), 5.0, -0.0, math.Copysign(0, -1))
	fmt.Printf("%v %.0f %.1f %6.2f|%-8.3e|%G\n", 2.0/3, 0.5, 0.25, math.Pi, 12345.678, 1e-10)
	var big float64 = 1 << 53
	fmt.Println(big+1 == big, int64(big), uint8(300&0xff))
	fmt.Println(math.MaxInt32, math.MinInt8, math.SmallestNonzeroFloat64 > 0)
	c := complex(1, 2)
	fmt.Println(c*c, real(c), imag(c))
	var r rune = 'a' + 1
	var by byte = 'z'
	fmt.Println(r, string(r), by, string(rune(by)))
}
