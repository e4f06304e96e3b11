package main

import (
	"fmt"
	"sort"

	"gonum.org/v1/gonum/stat"
)

func main() {
	x := []float64{12, 15, 11, 19, 22, 14, 17, 13, 30, 16}
	y := []float64{24, 29, 23, 40, 41, 27, 35, 26, 62, 31}
	mean, std := stat.MeanStdDev(x, nil)
	fmt.Printf("mean %.4f std %.4f var %.4f\n", mean, std, stat.Variance(x, nil))
	fmt.Printf("corr %.6f cov %.4f\n", stat.Correlation(x, y, nil), stat.Covariance(x, y, nil))
	alpha, beta := stat.LinearRegression(x, y, nil, false)
	fmt.Printf("y = %.4f + %.4f x, r2 %.4f\n", alpha, beta, stat.RSquared(x, y, nil, alpha, beta))
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	fmt.Println(stat.Quantile(0.5, stat.Empirical, s, nil), stat.Quantile(0.9, stat.Empirical, s, nil))
	fmt.Printf("%.4f\n", stat.GeometricMean(x, nil))
}
