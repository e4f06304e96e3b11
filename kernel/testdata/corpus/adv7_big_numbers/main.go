package main

import (
	"fmt"
	"math/big"
)

func factorial(n int64) *big.Int {
	r := big.NewInt(1)
	for i := int64(2); i <= n; i++ {
		r.Mul(r, big.NewInt(i))
	}
	return r
}

func fib(n int) *big.Int {
	a, b := big.NewInt(0), big.NewInt(1)
	for i := 0; i < n; i++ {
		a.Add(a, b)
		a, b = b, a
	}
	return a
}

func main() {
	f := factorial(30)
	fmt.Println(f, f.BitLen(), len(f.String()))
	fmt.Println(fib(100))
	sum := 0
	for _, c := range factorial(100).String() {
		sum += int(c - '0')
	}
	fmt.Println("digit sum 100!:", sum)

	x, ok := new(big.Int).SetString("123456789012345678901234567890", 10)
	fmt.Println(x, ok)
	y, _ := new(big.Int).SetString("ff", 16)
	q, m := new(big.Int).QuoRem(x, big.NewInt(97), new(big.Int))
	fmt.Println(y, q, m)
	fmt.Println(new(big.Int).Exp(big.NewInt(2), big.NewInt(100), nil))
	fmt.Println(new(big.Int).Exp(big.NewInt(3), big.NewInt(200), big.NewInt(1000007)))
	fmt.Println(x.Cmp(y), y.Cmp(x), x.Sign(), new(big.Int).Neg(y))
	fmt.Println(new(big.Int).GCD(nil, nil, big.NewInt(462), big.NewInt(1071)))
	fmt.Println(big.NewInt(97).ProbablyPrime(20), big.NewInt(91).ProbablyPrime(20))
	fmt.Printf("%x %X %o %b %08d\n", y, y, y, big.NewInt(5), big.NewInt(42))
	n := big.NewInt(-7)
	fmt.Println(new(big.Int).Div(n, big.NewInt(2)), new(big.Int).Quo(n, big.NewInt(2)),
		new(big.Int).Mod(n, big.NewInt(2)), new(big.Int).Rem(n, big.NewInt(2)))

	r := big.NewRat(1, 3)
	r.Add(r, big.NewRat(1, 6))
	fmt.Println(r, r.FloatString(5), r.Num(), r.Denom())
	h := new(big.Rat)
	for i := int64(1); i <= 10; i++ {
		h.Add(h, big.NewRat(1, i))
	}
	fmt.Println("H10 =", h, h.FloatString(10))

	bf := new(big.Float).SetPrec(100)
	bf.SetInt64(2)
	bf.Sqrt(bf)
	fmt.Println(bf.Text('f', 25))
	fmt.Println(big.NewFloat(1.5).String(), new(big.Float).Quo(big.NewFloat(1), big.NewFloat(3)).Text('g', 10))
}
