package main

import (
	"fmt"
	"sort"
	"strings"
)

// Codec turns a record into text.
type Codec func(rec map[string]string) string

// Each codec registers itself while the package initializes.
var (
	_ = Register("csv", func(rec map[string]string) string {
		return strings.Join(values(rec), ",")
	})
	_ = Register("kv", func(rec map[string]string) string {
		var parts []string
		for _, k := range keys(rec) {
			parts = append(parts, k+"="+rec[k])
		}
		return strings.Join(parts, " ")
	})
)

var registry map[string]Codec
var registered []string

func Register(name string, c Codec) bool {
	if registry == nil {
		registry = map[string]Codec{}
	}
	registry[name] = c
	registered = append(registered, name)
	return true
}

func mustGet(name string) Codec {
	c, ok := registry[name]
	if !ok {
		panic("no codec " + name)
	}
	return c
}

func keys(rec map[string]string) []string {
	ks := make([]string, 0, len(rec))
	for k := range rec {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func values(rec map[string]string) []string {
	var vs []string
	for _, k := range keys(rec) {
		vs = append(vs, rec[k])
	}
	return vs
}

func main() {
	rec := map[string]string{"id": "7", "name": "ann", "city": "oslo"}
	fmt.Println("registered:", registered, len(registry))
	for _, name := range []string{"csv", "kv"} {
		fmt.Printf("%-4s %s\n", name, registry[name](rec))
	}
	fmt.Println("default:", mustGet("kv")(map[string]string{"x": "1"}))
}
