package main

import "fmt"

type Code int

func (c Code) Error() string { return fmt.Sprintf("code %d", int(c)) }

func find(n int) error {
	if n > 2 {
		return Code(404)
	}
	return nil
}

func main() {
	err := fmt.Errorf("wrap: %w", find(3))
	fmt.Println(err)
	switch e := find(5).(type) {
	case Code:
		fmt.Println("code", int(e))
	default:
		fmt.Println("other")
	}
	if c, ok := find(4).(Code); ok {
		fmt.Println("assert", int(c))
	}
	fmt.Println(find(3) == Code(404), find(1) == nil)
}
