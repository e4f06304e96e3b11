// fmt prints maps with sorted keys at every level, whatever the key type.
package main

import "fmt"

type key struct {
	Region string
	Year   int
}

func main() {
	sales := map[string]map[string]int{
		"west":  {"q2": 5, "q1": 3},
		"east":  {"q4": 1, "q1": 9, "q3": 2},
		"north": {},
	}
	fmt.Println(sales)
	fmt.Printf("%v\n%+v\n", sales["east"], sales["none"])
	byKey := map[key][]float64{
		{"west", 2024}: {1.5},
		{"east", 2025}: {2, 3},
		{"east", 2024}: nil,
	}
	fmt.Println(byKey)
	ints := map[int]string{10: "ten", -1: "neg", 3: "three"}
	fmt.Println(ints)
	floats := map[float64]bool{2.5: true, -1: false, 0: true}
	fmt.Println(floats)
	bools := map[bool]int{true: 1, false: 0}
	fmt.Println(bools)
	anyVals := map[string]any{"n": 1, "s": "x", "list": []int{1, 2}, "m": map[string]int{"b": 2, "a": 1}}
	fmt.Println(anyVals)
	arrKey := map[[2]int]string{{2, 1}: "b", {1, 2}: "a", {1, 1}: "c"}
	fmt.Println(arrKey)
	runes := map[rune]int{'b': 2, 'a': 1}
	fmt.Println(runes)
	nested := map[string][]map[string]int{"x": {{"z": 1, "y": 2}, {}}}
	fmt.Printf("%v %d\n", nested, len(nested["x"]))
}
