package main

import "fmt"

func main() {
	grid := make([][]int, 3)
	for i := range grid {
		grid[i] = make([]int, 4)
		for j := range grid[i] {
			grid[i][j] = i * j
		}
	}
	fmt.Println(grid)
	s := []int{0, 1, 2, 3, 4, 5}
	fmt.Println(s[2:4], s[:2], s[4:], len(s[1:3:4]), cap(s[1:3:4]))
	t := append([]int(nil), s...)
	t[0] = 99
	fmt.Println(s[0], t[0])
	var arr [5]int
	arr[2] = 7
	fmt.Println(arr, len(arr))
	copy(s, []int{9, 9})
	fmt.Println(s)
}
