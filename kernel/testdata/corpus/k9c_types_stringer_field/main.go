package main

import "fmt"

type Celsius float64

func (c Celsius) String() string { return fmt.Sprintf("%.1fC", float64(c)) }

type Reading struct {
	Where string
	Temp  Celsius
}

func main() {
	r := Reading{"kitchen", 21.5}
	fmt.Println(r.Temp)
	fmt.Printf("%v\n", r)
}
