package main

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

func main() {
	// Least squares: fit y = a + b*x.
	xs := []float64{1, 2, 3, 4, 5}
	ys := []float64{2.2, 4.1, 6.2, 7.9, 10.1}
	a := mat.NewDense(len(xs), 2, nil)
	for i, x := range xs {
		a.Set(i, 0, 1)
		a.Set(i, 1, x)
	}
	b := mat.NewVecDense(len(ys), ys)
	var coef mat.VecDense
	if err := coef.SolveVec(a, b); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("a=%.4f b=%.4f\n", coef.AtVec(0), coef.AtVec(1))
	var at mat.Dense
	at.CloneFrom(a.T())
	r, c := at.Dims()
	fmt.Println(r, c, mat.Sum(&at))
	sym := mat.NewSymDense(2, []float64{2, 1, 1, 2})
	var eig mat.EigenSym
	ok := eig.Factorize(sym, false)
	fmt.Printf("%v %.4f\n", ok, eig.Values(nil))
}
