package main

import "fmt"

func findPair(nums []int, target int) (int, int, bool) {
	i, j := 0, 0
outer:
	for i = 0; i < len(nums); i++ {
		for j = i + 1; j < len(nums); j++ {
			switch s := nums[i] + nums[j]; {
			case s == target:
				break outer
			case s > target:
				continue outer
			}
		}
	}
	if i == len(nums) {
		return -1, -1, false
	}
	return i, j, true
}

func primes(n int) []int {
	var out []int
next:
	for c := 2; len(out) < n; c++ {
		for _, p := range out {
			if p*p > c {
				break
			}
			if c%p == 0 {
				continue next
			}
		}
		out = append(out, c)
	}
	return out
}

func collatz(n int) (steps int) {
loop:
	if n == 1 {
		return
	}
	steps++
	if n%2 == 0 {
		n /= 2
	} else {
		n = 3*n + 1
	}
	goto loop
}

func main() {
	fmt.Println(findPair([]int{1, 4, 6, 9, 12}, 15))
	fmt.Println(findPair([]int{5, 1, 2}, 100))
	fmt.Println(primes(12))
	for _, n := range []int{1, 6, 7, 27} {
		fmt.Printf("collatz(%d)=%d\n", n, collatz(n))
	}
	grid := [][]int{{1, 2, 3}, {4, -5, 6}, {7, 8, -9}}
	count := 0
rows:
	for r, row := range grid {
		for c, v := range row {
			if v < 0 {
				fmt.Println("negative at", r, c)
				continue rows
			}
			count++
		}
	}
	fmt.Println("counted", count)
	k := 0
	for {
		select {
		default:
			k++
		}
		if k > 3 {
			break
		}
	}
	fmt.Println("k", k)
}
