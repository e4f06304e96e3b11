package main

import "fmt"

func Describe[T any](v T) string {
	switch x := any(v).(type) {
	case int:
		return fmt.Sprintf("int %d", x)
	case string:
		return "string " + x
	case []T:
		return "slice of T"
	case fmt.Stringer:
		return "stringer " + x.String()
	case nil:
		return "nil"
	default:
		return fmt.Sprintf("other %T", x)
	}
}

type ID int

func (i ID) String() string { return fmt.Sprintf("#%d", int(i)) }

type Opt[T any] struct {
	v  T
	ok bool
}

func Some[T any](v T) Opt[T]    { return Opt[T]{v, true} }
func (o Opt[T]) Get() (T, bool) { return o.v, o.ok }
func (o Opt[T]) Or(d T) T {
	if o.ok {
		return o.v
	}
	return d
}

func Zero[T any]() T {
	var z T
	return z
}

func main() {
	fmt.Println(Describe(3))
	fmt.Println(Describe("s"))
	fmt.Println(Describe(ID(9)))
	fmt.Println(Describe(2.5))
	fmt.Println(Describe[any](nil))
	fmt.Println(Some(5).Or(1), Opt[string]{}.Or("dflt"))
	v, ok := Some("x").Get()
	fmt.Println(v, ok)
	fmt.Printf("%q %v %v\n", Zero[string](), Zero[*int]() == nil, Zero[[2]int]())
}
