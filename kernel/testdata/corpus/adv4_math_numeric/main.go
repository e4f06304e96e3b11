// math and math/bits: rounding modes, special values, float formatting,
// bit counts and rotations, and complex numbers.
package main

import (
	"fmt"
	"math"
	"math/bits"
	"math/cmplx"
)

func main() {
	for _, v := range []float64{2.5, -2.5, 3.5, -0.4, 1.4999999} {
		fmt.Println(v, math.Round(v), math.RoundToEven(v), math.Floor(v), math.Ceil(v), math.Trunc(v))
	}
	nan := math.NaN()
	inf := math.Inf(1)
	fmt.Println(nan == nan, nan < 1, nan > 1, math.IsNaN(nan), inf > math.MaxFloat64, -inf, inf-inf, 1/inf)
	zero := 0.0
	fmt.Println(1/zero, -1/zero, zero/zero, math.Signbit(-zero), math.Signbit(math.Copysign(0, -1)))
	fmt.Println(math.Mod(7, -3), math.Mod(-7, 3), math.Remainder(7, 3), math.Abs(-2), math.Max(nan, 1), math.Min(-0.0, 0))
	fmt.Println(math.Sqrt(2), math.Cbrt(27), math.Pow(2, 0.5), math.Hypot(3, 4), math.Log(math.E), math.Log10(1000), math.Log2(8))
	fmt.Println(math.MaxInt64, math.MinInt64, math.MaxUint32, math.SmallestNonzeroFloat64, math.MaxFloat32)
	fmt.Println(math.Float64bits(1.0), math.Float64frombits(0x4000000000000000), math.Float32bits(0.1))
	frac, exp := math.Frexp(8)
	ip, fp := math.Modf(-3.75)
	fmt.Println(frac, exp, ip, fp, math.Ldexp(0.5, 4))
	fmt.Println(0.1+0.2, 0.1+0.2 == 0.3, float32(0.1)+float32(0.2), 1e100, 1e-5, 123456789.0, 1234567890123456789.0)
	var f32 float32 = 16777216
	fmt.Println(f32+1, float64(f32)+1, float32(1)/3)

	var x uint64 = 0xF0F0
	fmt.Println(bits.OnesCount64(x), bits.LeadingZeros64(x), bits.TrailingZeros64(x), bits.Len64(x))
	fmt.Println(bits.RotateLeft8(0x81, 1), bits.RotateLeft32(1, -1), bits.Reverse8(0x01), bits.ReverseBytes16(0x1234))
	sum, carry := bits.Add64(math.MaxUint64, 1, 0)
	hi, lo := bits.Mul64(1<<63, 4)
	q, rem := bits.Div64(1, 0, 3)
	fmt.Println(sum, carry, hi, lo, q, rem)

	c := complex(3, 4)
	fmt.Println(c, real(c), imag(c), cmplx.Abs(c), c*c, c/complex(0, 1), cmplx.Conj(c))
	var c64 complex64 = 1 + 2i
	fmt.Printf("%v %.2f %T\n", c64*c64, c, c64)
	fmt.Println(cmplx.Sqrt(-1), cmplx.Exp(complex(0, math.Pi)), c == complex(3, 4))
	fmt.Printf("%.3e %08.3f %g %g\n", math.Pi, -math.Pi, 1e6, 1e-4)
}
