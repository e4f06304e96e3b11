package main

import (
	"fmt"

	"gonum.org/v1/gonum/stat/distuv"
)

func main() {
	n := distuv.Normal{Mu: 100, Sigma: 15}
	fmt.Printf("%.6f %.6f %.4f\n", n.CDF(115), n.Prob(100), n.Quantile(0.975))
	p := distuv.Poisson{Lambda: 3}
	fmt.Printf("%.6f %.6f %.1f\n", p.Prob(2), p.CDF(4), p.Mean())
	u := distuv.Uniform{Min: 0, Max: 10}
	fmt.Println(u.CDF(2.5), u.Mean(), u.Entropy() > 2)
}
