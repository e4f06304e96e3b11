package main

import (
	"fmt"
	"sort"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat"
)

func main() {
	x := []float64{12.5, 3, 7.25, 9, 1, 15, 4.5, 8, 10, 6}
	y := []float64{25, 7, 15, 17, 3, 31, 10, 15, 21, 12}
	sorted := append([]float64(nil), x...)
	sort.Float64s(sorted)
	for _, p := range []float64{0.1, 0.25, 0.5, 0.9} {
		fmt.Printf("q%.2f %.4f\n", p, stat.Quantile(p, stat.Empirical, sorted, nil))
	}
	fmt.Printf("corr %.6f cov %.6f\n", stat.Correlation(x, y, nil), stat.Covariance(x, y, nil))
	alpha, beta := stat.LinearRegression(x, y, nil, false)
	fmt.Printf("fit y = %.6f + %.6f x, r2 %.6f\n", alpha, beta, stat.RSquared(x, y, nil, alpha, beta))
	fmt.Printf("sum %.2f max %.2f argmax %d norm %.6f\n", floats.Sum(x), floats.Max(x), floats.MaxIdx(x), floats.Norm(x, 2))
}
