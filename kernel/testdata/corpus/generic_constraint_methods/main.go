package main

import (
	"fmt"
	"strings"
)

type Named interface {
	Name() string
}

type User struct{ first, last string }

func (u User) Name() string { return u.first + " " + u.last }

func Names[T Named](xs []T) string {
	var parts []string
	for _, x := range xs {
		parts = append(parts, x.Name())
	}
	return strings.Join(parts, ", ")
}

func main() {
	fmt.Println(Names([]User{{"Ada", "Lovelace"}, {"Alan", "Turing"}}))
}
