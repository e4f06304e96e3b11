package main

import "fmt"

type Celsius float64
type ID int
type Name string

func kind(v any) string {
	switch v.(type) {
	case float64:
		return "float64"
	case Celsius:
		return "Celsius"
	case int:
		return "int"
	case ID:
		return "ID"
	case string:
		return "string"
	case Name:
		return "Name"
	}
	return "other"
}

func main() {
	fmt.Println(kind(Celsius(1)), kind(1.0), kind(ID(2)), kind(3), kind(Name("n")), kind("s"))
	var v any = ID(4)
	_, isInt := v.(int)
	_, isID := v.(ID)
	fmt.Println(isInt, isID)
}
