package main

import (
	"fmt"
	"math"
	"strconv"
)

func main() {
	xs := []float64{0, 1, -1, 0.1, 1.0 / 3, 2.0 / 3, 1e6, 1e21, 1e-5, 123456789.0, 1.5e-10, math.Pi, 100}
	for _, x := range xs {
		fmt.Println(x, strconv.FormatFloat(x, 'f', -1, 64), strconv.FormatFloat(x, 'e', 3, 64), strconv.FormatFloat(x, 'g', 4, 64))
	}
	fmt.Println(0.1+0.2, 0.1+0.2 == 0.3, float32(0.1), float32(0.1)+float32(0.2))
	fmt.Println(math.Inf(1), math.Inf(-1), math.NaN(), -math.MaxFloat64, math.SmallestNonzeroFloat64)
	nan := math.NaN()
	fmt.Println(nan == nan, nan < 1, nan > 1, math.IsNaN(nan), math.IsInf(1/math.Inf(1), 0))
	negz := math.Copysign(0, -1)
	fmt.Println(negz, 1/negz, negz == 0, math.Signbit(negz))
	fmt.Printf("%.2f %.0f %.0f %.0f %.0f\n", 2.675, 0.5, 1.5, 2.5, -0.5)
	fmt.Printf("%g %g %g %v %v\n", 1e20, 1e21, float32(1e21), float32(3.4e38), float32(16777217))
	fmt.Println(math.Round(2.5), math.Round(-2.5), math.Floor(-2.5), math.Ceil(-2.5), math.Trunc(-2.7), math.RoundToEven(2.5))
	fmt.Println(math.Sqrt(2), math.Cbrt(27), math.Pow(2, 0.5), math.Hypot(3, 4), math.Exp(1), math.Log(math.E), math.Log10(0.001), math.Log2(1024))
	fmt.Println(math.Mod(7, -3), math.Mod(-7, 3), math.Remainder(7, 3), math.Abs(-0.0), math.Max(3, math.NaN()), math.Min(-0.0, 0))
	fr, exp := math.Frexp(12)
	fmt.Println(fr, exp, math.Ldexp(0.75, 4), math.Float64bits(1.0), math.Float32frombits(0x3f800000))
	ip, fp := math.Modf(-3.25)
	fmt.Println(ip, fp)
	f, err := strconv.ParseFloat("1e400", 64)
	fmt.Println(f, err)
	f, err = strconv.ParseFloat("0x1p-2", 64)
	fmt.Println(f, err)
	f32, _ := strconv.ParseFloat("3.14159265358979", 32)
	fmt.Println(f32, float32(f32))
	sum := 0.0
	for i := 0; i < 10; i++ {
		sum += 0.1
	}
	fmt.Println(sum, sum == 1, math.Abs(sum-1) < 1e-9)
	var avg float64
	vals := []int{3, 4, 4}
	for _, v := range vals {
		avg += float64(v)
	}
	avg /= float64(len(vals))
	fmt.Printf("%.4f %v %8.3e|\n", avg, avg, avg)
	fmt.Println(7/2, 7/2.0, float64(7)/2, 7.0/2, int(7.0/2.0*2))
	const c = 7 / 2
	var fc float64 = c
	var fd float64 = 7 / 2.0
	fmt.Println(fc, fd)
	fmt.Println(strconv.FormatFloat(1234.5678, 'f', 2, 32), strconv.FormatFloat(-0.000001234, 'G', -1, 64))
}
