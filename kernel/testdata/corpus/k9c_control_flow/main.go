package main

import "fmt"

func classify(n int) string {
	switch {
	case n < 0:
		return "neg"
	case n == 0:
		fallthrough
	case n == 1:
		return "small"
	case n%2 == 0:
		return "even"
	default:
		return "odd"
	}
}

func main() {
	for _, n := range []int{-1, 0, 1, 4, 7} {
		fmt.Print(classify(n), " ")
	}
	fmt.Println()

outer:
	for i := 0; i < 4; i++ {
		for j := 0; j < 4; j++ {
			if j == 2 {
				continue outer
			}
			if i == 3 {
				break outer
			}
			fmt.Print(i, j, " ")
		}
	}
	fmt.Println()

	i := 0
loop:
	if i < 3 {
		fmt.Print("goto", i, " ")
		i++
		goto loop
	}
	fmt.Println()

	switch x := 5; x {
	case 1, 2, 3:
		fmt.Println("low")
	case 4, 5:
		fmt.Println("mid")
		fallthrough
	case 6:
		fmt.Println("fell into 6")
	default:
		fmt.Println("high")
	}

	x := 1
	{
		x := 2
		x++
		_ = x
	}
	if x := 10; x > 5 {
		fmt.Println("inner", x)
	}
	fmt.Println("outer", x)

	var err error
	if true {
		v, err := 1, fmt.Errorf("shadowed")
		_, _ = v, err
	}
	fmt.Println(err == nil)

	count := 0
	for range 5 {
		count++
		if count == 3 {
			break
		}
	}
	fmt.Println(count)

	sw := func(v any) string {
		switch t := v.(type) {
		case nil:
			return "nil"
		case int, int64:
			return fmt.Sprintf("integer %v", t)
		case []int:
			return fmt.Sprintf("slice %d", len(t))
		case func() int:
			return "func"
		default:
			return fmt.Sprintf("other %v", t)
		}
	}
	fmt.Println(sw(nil), sw(3), sw(int64(4)), sw([]int{1}), sw(func() int { return 1 }), sw("s"))
}
