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

func digitSum(x *big.Int) int {
	s := 0
	for _, c := range x.String() {
		s += int(c - '0')
	}
	return s
}

func main() {
	f := factorial(30)
	fmt.Println("30! =", f, "digits", len(f.String()), "sum", digitSum(f))
	fmt.Println("fib(100) =", fib(100))
	p := new(big.Int).Exp(big.NewInt(2), big.NewInt(127), nil)
	p.Sub(p, big.NewInt(1))
	fmt.Println("M127 prime?", p.ProbablyPrime(20), p.BitLen())
	q, r := new(big.Int).QuoRem(f, big.NewInt(1_000_003), new(big.Int))
	fmt.Println(q, r)
	g := new(big.Int).GCD(nil, nil, big.NewInt(462), big.NewInt(1071))
	fmt.Println("gcd", g, big.NewInt(-5).Cmp(big.NewInt(3)), f.Sign())

	x := big.NewRat(1, 3)
	y := big.NewRat(1, 6)
	s := new(big.Rat).Add(x, y)
	fmt.Println(s, s.FloatString(5), new(big.Rat).Mul(s, big.NewRat(4, 1)))
	h := new(big.Rat)
	for i := int64(1); i <= 10; i++ {
		h.Add(h, big.NewRat(1, i))
	}
	fmt.Println("H10 =", h, h.FloatString(8))

	n, ok := new(big.Int).SetString("123456789012345678901234567890", 10)
	fmt.Println(n, ok, n.Text(16))
	_, ok = new(big.Int).SetString("12x", 10)
	fmt.Println(ok)
	bf := new(big.Float).SetPrec(100).SetInt64(2)
	bf.Sqrt(bf)
	fmt.Println(bf.Text('f', 25))
	fmt.Printf("%x %08d %s\n", big.NewInt(255), big.NewInt(42), big.NewInt(-7))
}
