package main

import "fmt"

type NotFound struct{ Key string }

func (e NotFound) Error() string { return "not found: " + e.Key }

type PErr struct{ Key string }

func (e *PErr) Error() string { return "perr: " + e.Key }

func main() {
	fmt.Println(NotFound{"a"})
	err := fmt.Errorf("wrap: %w", NotFound{"b"})
	fmt.Println(err)
	fmt.Println(&PErr{"c"})
	fmt.Println(fmt.Errorf("w %w", &PErr{"d"}))
	fmt.Printf("%v %s\n", NotFound{"e"}, &PErr{"f"})
}
