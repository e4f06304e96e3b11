// A template reads a field promoted from an embedded struct; yaegi lost
// the embedding, so the template failed at run time. Routed to compiled.
package main

import (
	"os"
	"text/template"
)

type Person struct {
	Name string
	Age  int
}

func (p Person) Adult() bool { return p.Age >= 18 }

type Employee struct {
	Person
	Title string
}

func main() {
	t := template.Must(template.New("e").Parse("{{.Name}} ({{.Age}}) is {{.Title}}\n"))
	err := t.Execute(os.Stdout, Employee{Person{"Ann", 40}, "CTO"})
	if err != nil {
		os.Stdout.WriteString("error: " + err.Error() + "\n")
	}
	t.Execute(os.Stdout, &Employee{Person{"Kid", 9}, "Intern"})
}
