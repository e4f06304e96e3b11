package main

import (
	"fmt"
	"time"
)

type job struct {
	name    string
	timeout time.Duration
}

type Code int

func (c Code) Error() string { return fmt.Sprintf("code %d", int(c)) }

type result struct {
	ID  int
	err error
}

func main() {
	j := job{"build", 5 * time.Second}
	fmt.Println(j)
	fmt.Println(result{1, Code(2)})
}
