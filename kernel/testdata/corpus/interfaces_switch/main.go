package main

import (
	"fmt"
	"strings"
)

type Stringer interface{ String() string }

type ID int

func (i ID) String() string { return fmt.Sprintf("ID-%03d", int(i)) }

func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case int:
		return fmt.Sprintf("int %d", x)
	case string:
		return "string " + strings.ToUpper(x)
	case Stringer:
		return "stringer " + x.String()
	case []int:
		return fmt.Sprintf("slice of %d", len(x))
	case error:
		return "error " + x.Error()
	default:
		return fmt.Sprintf("other %T", x)
	}
}

func main() {
	for _, v := range []any{nil, 7, "go", ID(5), []int{1, 2}, fmt.Errorf("bad"), 2.5} {
		fmt.Println(describe(v))
	}
}
