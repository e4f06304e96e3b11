package main

import "fmt"

func main() {
	var fs []func() string
	for i := 0; i < 3; i++ {
		func(x int) {
			fs = append(fs, func() string { return fmt.Sprint("param ", x) })
		}(i)
		r := func() (out int) {
			out = i * 7
			fs = append(fs, func() string { return fmt.Sprint("result ", out) })
			return
		}()
		_ = r
		func(v any) {
			switch t := v.(type) {
			case int:
				fs = append(fs, func() string { return fmt.Sprint("iife-switch ", t) })
			}
		}(i * 100)
		func(m map[int]int) {
			w, ok := m[i]
			fs = append(fs, func() string { return fmt.Sprint("iife-commaok ", w, ok) })
		}(map[int]int{i: i + 1})
	}
	for _, f := range fs {
		fmt.Println(f())
	}
}
