package main

import (
	"fmt"
	"strings"
)

func appendAll(dst []int, xs ...int) []int {
	for i := range xs {
		xs[i] *= 10
	}
	return append(dst, xs...)
}

func joinWith(sep string, parts ...string) string {
	if len(parts) == 0 {
		return "<none>"
	}
	return strings.Join(parts, sep)
}

func logf(prefix string, args ...any) string {
	return fmt.Sprintf(prefix+strings.Repeat(" %v", len(args)), args...)
}

func sumAll(nums ...int) (total int) {
	for _, n := range nums {
		total += n
	}
	return
}

type Option func(*config)

type config struct {
	name    string
	retries int
	tags    []string
}

func WithName(n string) Option    { return func(c *config) { c.name = n } }
func WithRetries(n int) Option    { return func(c *config) { c.retries = n } }
func WithTags(t ...string) Option { return func(c *config) { c.tags = append(c.tags, t...) } }

func New(opts ...Option) config {
	c := config{name: "default", retries: 1}
	for _, o := range opts {
		o(&c)
	}
	return c
}

func main() {
	src := []int{1, 2, 3}
	out := appendAll(nil, src...)
	fmt.Println(src, out)
	out2 := appendAll([]int{0}, 4, 5)
	fmt.Println(out2)

	fmt.Println(joinWith(", "), joinWith("-", "a"), joinWith("/", []string{"x", "y", "z"}...))
	fmt.Println(logf("msg:"), logf("msg:", 1, "two", []int{3}))
	var nilSlice []any
	fmt.Println(logf("nil:", nilSlice...), logf("one nil:", nil))
	fmt.Println(sumAll(), sumAll(1), sumAll(src...), sumAll(out...))

	c := New(WithName("svc"), WithTags("a", "b"), WithRetries(3), WithTags("c"))
	fmt.Printf("%s %d %v\n", c.name, c.retries, c.tags)
	d := New()
	fmt.Printf("%s %d %v %t\n", d.name, d.retries, d.tags, d.tags == nil)
	opts := []Option{WithName("x")}
	opts = append(opts, WithRetries(9))
	e := New(opts...)
	fmt.Println(e.name, e.retries)
	f := func(xs ...string) int { return len(xs) }
	fmt.Println(f(), f("a", "b"), f(strings.Fields(" p q r ")...))
	args := []any{"%s has %d"}
	fmt.Println(fmt.Sprint(args...), fmt.Sprintf("%s has %d", "go", 2))
}
