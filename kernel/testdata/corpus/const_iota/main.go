package main

import "fmt"

type Weekday int

const (
	Sunday Weekday = iota
	Monday
	Tuesday
)

func (d Weekday) String() string {
	return [...]string{"Sun", "Mon", "Tue"}[d]
}

type Size uint

const (
	_       = iota
	KB Size = 1 << (10 * iota)
	MB
	GB
)

func main() {
	fmt.Println(Sunday, Tuesday, Monday+1)
	fmt.Println(KB, MB, GB)
	const big = 1 << 62
	fmt.Println(big>>60, float64(big)/1e18 > 4)
	fmt.Printf("%d %v\n", Tuesday, Tuesday)
}
