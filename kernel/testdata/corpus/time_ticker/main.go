package main

import (
	"fmt"
	"time"
)

func main() {
	tk := time.NewTicker(2 * time.Millisecond)
	defer tk.Stop()
	n := 0
	for range tk.C {
		n++
		if n == 3 {
			break
		}
	}
	fmt.Println("ticks", n)
	tm := time.NewTimer(time.Millisecond)
	<-tm.C
	fmt.Println("timer fired", tm.Stop())
	start := time.Now()
	time.Sleep(3 * time.Millisecond)
	fmt.Println(time.Since(start) >= 3*time.Millisecond)
}
