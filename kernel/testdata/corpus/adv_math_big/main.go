package main

import (
	"fmt"
	"math/big"
)

func fact(n int64) *big.Int {
	r := big.NewInt(1)
	for i := int64(2); i <= n; i++ {
		r.Mul(r, big.NewInt(i))
	}
	return r
}

func main() {
	fmt.Println(fact(30))
	a, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
	b := big.NewInt(987654321)
	q, m := new(big.Int).DivMod(a, b, new(big.Int))
	fmt.Println(q, m)
	fmt.Println(new(big.Int).Exp(big.NewInt(2), big.NewInt(100), nil))
	fmt.Println(a.Cmp(b), b.Cmp(a), a.Sign(), new(big.Int).Neg(b))
	fmt.Println(new(big.Int).GCD(nil, nil, big.NewInt(84), big.NewInt(36)))
	fmt.Println(big.NewInt(97).ProbablyPrime(20), a.BitLen(), a.Text(16))
	r := big.NewRat(3, 4)
	r.Add(r, big.NewRat(1, 6))
	fmt.Println(r, r.FloatString(5))
	f := new(big.Float).SetPrec(100).SetFloat64(2)
	f.Sqrt(f)
	fmt.Println(f.Text('f', 25))
	fmt.Printf("%v %s %d %x\n", b, b, b, b)
	fib := []*big.Int{big.NewInt(0), big.NewInt(1)}
	for i := 2; i <= 100; i++ {
		fib = append(fib, new(big.Int).Add(fib[i-1], fib[i-2]))
	}
	fmt.Println(fib[100])
}
