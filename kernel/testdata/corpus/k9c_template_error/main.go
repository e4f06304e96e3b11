package main

import (
	"fmt"
	"os"
	"text/template"
)

type Order struct {
	ID int
}

func main() {
	t := template.Must(template.New("x").Parse("order {{.ID}}\n{{.Missing}}\n"))
	err := t.Execute(os.Stdout, Order{ID: 7})
	fmt.Println()
	fmt.Println("error:", err)
}
