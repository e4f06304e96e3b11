package main

import (
	"fmt"
	"math"
	"math/big"
	"math/rand"
)

func main() {
	fmt.Println(math.Sqrt(2), math.Floor(-1.5), math.Ceil(1.2), math.Abs(-3))
	fmt.Println(math.MaxInt64, math.Pi, math.Inf(-1), math.IsNaN(math.NaN()))
	fmt.Printf("%.4f %.4f\n", math.Pow(2, 0.5), math.Log(math.E))
	r := rand.New(rand.NewSource(42))
	a, b := r.Intn(100), r.Intn(100)
	r2 := rand.New(rand.NewSource(42))
	fmt.Println(a == r2.Intn(100), b == r2.Intn(100))
	x := new(big.Int)
	x.Exp(big.NewInt(2), big.NewInt(100), nil)
	fmt.Println(x.String())
	f := new(big.Float).SetFloat64(1.5)
	fmt.Println(f.Text('f', 2))
}
