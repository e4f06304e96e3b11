// What a program prints before main: package variables' initializers (in
// dependency order) and init functions (in source order). yaegi runs them
// when the kernel loads the block, before the run's stdout was connected,
// so their lines were lost (or arrived only if the pipe was still unread).
package main

import (
	"fmt"
	"sort"
	"strings"
)

var (
	registry = map[string]func(string) string{}
	order    = initOrder()
	banner   = strings.Repeat("=", width)
	width    = computeWidth()
)

func computeWidth() int {
	fmt.Println("computing width")
	return 12
}

func initOrder() []string {
	fmt.Println("order starts empty")
	return nil
}

func register(name string, f func(string) string) {
	registry[name] = f
	order = append(order, name)
	fmt.Println("registered", name)
}

func init() {
	register("upper", strings.ToUpper)
}

func init() {
	register("trim", strings.TrimSpace)
	fmt.Println(banner)
}

func main() {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Println("main sees", names, order)
	s := "  hello  "
	for _, n := range order {
		s = registry[n](s)
	}
	fmt.Printf("%q\n", s)
}
