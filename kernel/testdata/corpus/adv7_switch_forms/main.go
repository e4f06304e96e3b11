package main

import (
	"fmt"
	"strings"
)

func grade(score int) string {
	switch {
	case score >= 90:
		return "A"
	case score >= 80:
		return "B"
	case score >= 70:
		return "C"
	default:
		return "F"
	}
}

func describe(n int) []string {
	var out []string
	switch {
	case n > 100:
		out = append(out, "huge")
		fallthrough
	case n > 10:
		out = append(out, "big")
		fallthrough
	case n > 0:
		out = append(out, "positive")
	case n == 0:
		out = append(out, "zero")
	default:
		out = append(out, "negative")
	}
	return out
}

func kind(c byte) string {
	switch c {
	case 'a', 'e', 'i', 'o', 'u':
		return "vowel"
	case ' ':
		return "space"
	}
	if c >= '0' && c <= '9' {
		return "digit"
	}
	return "other"
}

func classify(v any) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case int, int64:
		return fmt.Sprintf("integer %v", x)
	case string:
		return "string of " + fmt.Sprint(len(x))
	case []int:
		return fmt.Sprintf("slice len %d", len(x))
	case func() int:
		return fmt.Sprint("func gives ", x())
	default:
		return fmt.Sprintf("other %T", x)
	}
}

func main() {
	for _, s := range []int{95, 85, 75, 5} {
		fmt.Print(grade(s), " ")
	}
	fmt.Println()
	for _, n := range []int{500, 50, 5, 0, -5} {
		fmt.Println(n, describe(n))
	}
	var counts = map[string]int{}
	for i := 0; i < len("hi 2 you"); i++ {
		counts[kind("hi 2 you"[i])]++
	}
	fmt.Println(counts)
	fmt.Println(classify(nil), classify(3), classify(int64(4)), classify("héllo"), classify([]int{1}),
		classify(fmt.Errorf("bad")), classify(func() int { return 7 }), classify(3.5), classify(strings.NewReader("x")))
	switch x := 5; x {
	case 1, 2, 3:
		fmt.Println("small")
	case 4, 5:
		fmt.Println("medium")
		if x == 5 {
			break
		}
		fmt.Println("unreachable")
	default:
		fmt.Println("large")
	}
	cmd := "stop"
	switch strings.ToUpper(cmd) {
	case "GO":
		fmt.Println("going")
	case "STOP":
		fmt.Println("stopping")
		fallthrough
	case "PAUSE":
		fmt.Println("paused too")
	}
	f := func() int { fmt.Println("called f"); return 2 }
	switch f() {
	case 1:
	case 2:
		fmt.Println("two")
	}
	switch {
	}
	switch y := 3; {
	case y > 2:
		fmt.Println("y>2")
	}
}
