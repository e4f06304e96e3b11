package main

import (
	"fmt"
	"log"
	"os"
)

type NotFound struct{ Key string }

func (e *NotFound) Error() string { return "not found: " + e.Key }

type V struct{ N int }

func (v V) Error() string { return fmt.Sprint("v", v.N) }

func get(k string) error {
	if k == "" {
		return &NotFound{k}
	}
	return nil
}

func main() {
	log.SetOutput(os.Stdout)
	log.SetFlags(0)
	err := get("")
	fmt.Println("1", err)
	fmt.Printf("2 %v %s\n", err, err)
	fmt.Println("3", fmt.Errorf("wrap: %w", err))
	fmt.Println("4", err.Error())
	var e2 error = V{3}
	fmt.Println("5", e2, fmt.Sprint(e2), fmt.Sprintf("%v", e2))
	log.Println("6", err)
	log.Printf("7 %v", err)
	s := fmt.Sprintf("8 %v", err)
	fmt.Println(s)
}
