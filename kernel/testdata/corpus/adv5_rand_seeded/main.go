package main

import (
	"fmt"
	"math/rand"
	randv2 "math/rand/v2"
	"sort"
	"strings"
)

type Deck []string

func NewDeck() Deck {
	var d Deck
	for _, s := range []string{"S", "H"} {
		for _, r := range []string{"A", "K", "Q", "J"} {
			d = append(d, r+s)
		}
	}
	return d
}

func (d Deck) Shuffle(r *rand.Rand) {
	r.Shuffle(len(d), func(i, j int) { d[i], d[j] = d[j], d[i] })
}

func main() {
	r := rand.New(rand.NewSource(42))
	fmt.Println(r.Intn(100), r.Intn(100), r.Float64() < 1, r.Int63()%1000)
	d := NewDeck()
	d.Shuffle(r)
	fmt.Println(strings.Join(d, " "))
	fmt.Println(r.Perm(6))

	p := randv2.New(randv2.NewPCG(1, 2))
	fmt.Println(p.IntN(1000), p.IntN(1000), p.Uint64()%7, p.Float64() < 1)
	counts := map[int]int{}
	for i := 0; i < 1000; i++ {
		counts[p.IntN(3)]++
	}
	keys := []int{}
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	for _, k := range keys {
		fmt.Print(k, ":", counts[k], " ")
	}
	fmt.Println()
	sample := make([]int, 10)
	for i := range sample {
		sample[i] = i
	}
	p.Shuffle(len(sample), func(i, j int) { sample[i], sample[j] = sample[j], sample[i] })
	fmt.Println(sample)
	z := rand.NewZipf(rand.New(rand.NewSource(7)), 1.5, 2, 20)
	fmt.Println(z.Uint64(), z.Uint64(), z.Uint64())
	c := randv2.New(randv2.NewChaCha8([32]byte{1, 2, 3}))
	fmt.Println(c.IntN(50), c.IntN(50))
}
