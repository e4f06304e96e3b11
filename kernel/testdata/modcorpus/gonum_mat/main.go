package main

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

func main() {
	a := mat.NewDense(2, 2, []float64{4, 7, 2, 6})
	var inv mat.Dense
	if err := inv.Inverse(a); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.4v\n", mat.Formatted(&inv, mat.Prefix(""), mat.Squeeze()))
	var id mat.Dense
	id.Mul(a, &inv)
	fmt.Printf("%.3v\n", mat.Formatted(&id, mat.Squeeze()))
	v := mat.NewVecDense(2, []float64{1, 2})
	var av mat.VecDense
	av.MulVec(a, v)
	fmt.Println(av.AtVec(0), av.AtVec(1), mat.Det(a), mat.Trace(a))
	r, c := a.Dims()
	fmt.Println(r, c, mat.Norm(a, 2) > 9)
}
