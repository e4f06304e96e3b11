package main

import (
	"fmt"
	"reflect"
)

type Celsius float64
type Point struct{ X, Y int }

func main() {
	fmt.Println(reflect.TypeOf(Celsius(1)).Name(), reflect.TypeOf(Celsius(1)).Kind())
	fmt.Println(reflect.TypeOf(Point{}).Name(), reflect.TypeOf(Point{}).String())
	fmt.Println(reflect.TypeOf(Celsius(1)) == reflect.TypeOf(1.0))
	fmt.Println(reflect.ValueOf(Point{1, 2}).Type().Name())
	fmt.Println(reflect.TypeOf(Point{}))
}
