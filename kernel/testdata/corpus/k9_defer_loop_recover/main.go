package main

import "fmt"

func tryAll(jobs []func()) (failed int) {
	for _, job := range jobs {
		defer func() {
			if r := recover(); r != nil {
				failed++
				fmt.Println("recovered:", r)
			}
		}()
		job()
	}
	return 0
}

func main() {
	n := tryAll([]func(){
		func() { fmt.Println("job 1 ok") },
		func() { panic("job 2 broke") },
	})
	fmt.Println("failed:", n)
}
