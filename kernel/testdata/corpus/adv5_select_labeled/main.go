package main

import (
	"fmt"
	"strings"
)

func producer(words []string) <-chan string {
	ch := make(chan string)
	go func() {
		defer close(ch)
		for _, w := range words {
			ch <- w
		}
	}()
	return ch
}

func main() {
	words := producer(strings.Fields("alpha beta SKIP gamma delta STOP epsilon"))
	quit := make(chan struct{})
	var got []string
loop:
	for {
		select {
		case w, ok := <-words:
			if !ok {
				break loop
			}
			switch w {
			case "SKIP":
				continue loop
			case "STOP":
				break loop
			}
			got = append(got, w)
		case <-quit:
			break loop
		}
	}
	fmt.Println(got)
	for range words { // drain
	}

	// Nested loops with labels over a grid.
	grid := [][]int{{1, 2, 3}, {4, -1, 6}, {7, 8, 9}}
	sum := 0
rows:
	for r, row := range grid {
		for c, v := range row {
			if v < 0 {
				fmt.Println("negative at", r, c)
				continue rows
			}
			if v == 8 {
				break rows
			}
			sum += v
		}
	}
	fmt.Println("sum", sum)

	// A buffered channel drained with select/default.
	buf := make(chan int, 5)
	for i := 1; i <= 5; i++ {
		buf <- i * i
	}
	total := 0
drain:
	for {
		select {
		case v := <-buf:
			if v%2 == 0 {
				continue drain
			}
			total += v
		default:
			break drain
		}
	}
	fmt.Println("odd squares", total)
}
