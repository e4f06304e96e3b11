package main

import "fmt"

func main() {
	vals := []any{1, "a", 2}
	var fs []func() string
	i := 0
next:
	switch x := vals[i].(type) {
	case int:
		fs = append(fs, func() string { return fmt.Sprint("int ", x) })
	default:
		fs = append(fs, func() string { return fmt.Sprint("other ", x) })
	}
	i++
	if i < len(vals) {
		goto next
	}
	for _, f := range fs {
		fmt.Print(f(), "; ")
	}
	fmt.Println()
}
