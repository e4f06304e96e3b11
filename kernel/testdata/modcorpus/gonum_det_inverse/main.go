package main

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

func main() {
	a := mat.NewDense(3, 3, []float64{4, 7, 2, 3, 6, 1, 2, 5, 3})
	fmt.Printf("det %.6f trace %.1f\n", mat.Det(a), mat.Trace(a))
	var inv mat.Dense
	if err := inv.Inverse(a); err != nil {
		fmt.Println("inverse:", err)
		return
	}
	fmt.Printf("inverse\n%.4f\n", mat.Formatted(&inv))
	var id mat.Dense
	id.Mul(a, &inv)
	fmt.Printf("a*inv ~ identity: %v\n", mat.EqualApprox(&id, mat.NewDiagDense(3, []float64{1, 1, 1}), 1e-12))
	var t mat.Dense
	t.CloneFrom(a.T())
	fmt.Printf("norm %.6f transposed row 0 %v\n", mat.Norm(a, 2), mat.Row(nil, 0, &t))
}
