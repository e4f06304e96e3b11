package main

import (
	"errors"
	"fmt"
	"strings"
)

func safe(name string, f func()) (msg string) {
	defer func() {
		r := recover()
		switch v := r.(type) {
		case nil:
			msg = name + ": ok"
		case string:
			msg = name + ": string " + v
		case int:
			msg = fmt.Sprintf("%s: int %d", name, v)
		default:
			msg = fmt.Sprintf("%s: %v", name, v)
		}
	}()
	f()
	return name + ": finished"
}

func divide(a, b int) int { return a / b }

func main() {
	fmt.Println(safe("none", func() {}))
	fmt.Println(safe("str", func() { panic("boom") }))
	fmt.Println(safe("int", func() { panic(42) }))
	fmt.Println(safe("err", func() { panic(errors.New("bad thing")) }))
	fmt.Println(safe("fmt", func() { panic(fmt.Sprintf("code %d", 7)) }))
	fmt.Println(safe("div", func() { fmt.Println(divide(1, 0)) }))
	fmt.Println(safe("index", func() {
		s := []int{1, 2, 3}
		i := 5
		fmt.Println(s[i])
	}))
	fmt.Println(safe("nilmap", func() {
		var m map[string]int
		m["x"] = 1
	}))
	fmt.Println(safe("nested", func() {
		defer func() {
			if r := recover(); r != nil {
				panic(fmt.Sprint("re-panic: ", r))
			}
		}()
		panic("inner")
	}))
	fmt.Println(safe("slice", func() {
		s := make([]int, 2, 4)
		j := 5
		_ = s[1:j]
	}))
	var order []string
	func() {
		defer func() {
			order = append(order, fmt.Sprint("recovered ", recover()))
		}()
		defer func() { order = append(order, "second defer") }()
		order = append(order, "body")
		panic("p")
	}()
	fmt.Println(strings.Join(order, " | "))
	fmt.Println(recover())
}
