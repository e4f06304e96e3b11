package main

import "fmt"

type Celsius float64

func (c Celsius) String() string { return fmt.Sprintf("%.1fC", float64(c)) }

func main() {
	m := map[string]any{"c": Celsius(4), "n": 1}
	fmt.Println(m)
}
