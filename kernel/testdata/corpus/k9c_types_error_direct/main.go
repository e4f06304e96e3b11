package main

import "fmt"

type Code int

func (c Code) Error() string { return fmt.Sprintf("code %d", int(c)) }

func main() {
	fmt.Println(Code(3))
	fmt.Printf("%v|%s\n", Code(4), Code(5))
}
