package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
)

func classify(v any) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case int, int64, int32:
		return fmt.Sprintf("integer %v (%T)", x, x)
	case float32, float64:
		return fmt.Sprintf("float %v", x)
	case string:
		return "string of " + strconv.Itoa(len(x))
	case []int:
		sum := 0
		for _, n := range x {
			sum += n
		}
		return "ints summing " + strconv.Itoa(sum)
	case error:
		return "error: " + x.Error()
	case fmt.Stringer:
		return "stringer " + x.String()
	case func() int:
		return "func giving " + strconv.Itoa(x())
	case map[string]int:
		return fmt.Sprint("map with ", len(x), " keys")
	default:
		return fmt.Sprintf("other %T", x)
	}
}

type temp float64

func (t temp) String() string { return fmt.Sprintf("%.1f°", float64(t)) }

func depth(v any) int {
	switch x := v.(type) {
	case []any:
		best := 0
		for _, e := range x {
			if d := depth(e); d > best {
				best = d
			}
		}
		return best + 1
	case map[string]any:
		best := 0
		for _, e := range x {
			if d := depth(e); d > best {
				best = d
			}
		}
		return best + 1
	}
	return 0
}

func main() {
	var nilErr error
	vals := []any{
		nil, 42, int64(7), int32(-1), 2.5, float32(0.5), "héllo", []int{1, 2, 3},
		io.EOF, errors.New("boom"), func() int { return 9 }, map[string]int{"a": 1},
		nilErr, struct{}{}, uint8(3), true,
	}
	for i, v := range vals {
		fmt.Printf("%2d %s\n", i, classify(v))
	}
	fmt.Println(depth([]any{1, []any{2, map[string]any{"k": []any{3}}}, "x"}))
	fmt.Println(depth(5), depth([]any{}))
}
