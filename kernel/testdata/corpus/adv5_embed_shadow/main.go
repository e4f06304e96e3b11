package main

import "fmt"

type Base struct {
	ID   int
	Name string
}

func (b Base) Describe() string { return fmt.Sprintf("base %d %s", b.ID, b.Name) }
func (b Base) Kind() string     { return "base" }
func (b *Base) Rename(n string) { b.Name = n }

type Animal struct {
	Base
	Name string // shadows Base.Name
}

func (a Animal) Kind() string { return "animal/" + a.Base.Kind() }

type Dog struct {
	*Animal
	Tricks []string
}

func (d Dog) Describe() string {
	return fmt.Sprintf("dog %s (%s) knows %d tricks; %s", d.Name, d.Base.Name, len(d.Tricks), d.Animal.Describe())
}

type Describer interface{ Describe() string }
type Kinder interface{ Kind() string }

func main() {
	a := &Animal{Base: Base{ID: 1, Name: "inner"}, Name: "outer"}
	d := Dog{Animal: a, Tricks: []string{"sit", "roll"}}
	fmt.Println(d.Describe())
	fmt.Println(d.Kind(), d.ID, d.Name)

	d.Rename("renamed") // promoted through *Animal to *Base
	fmt.Println(a.Base.Name, a.Name, d.Base.Name)

	d.Name = "rex" // Animal.Name, not Base.Name
	fmt.Println(a.Name, a.Base.Name)

	var ds []Describer = []Describer{a.Base, *a, d}
	for _, x := range ds {
		fmt.Println(x.Describe())
	}
	for _, k := range []Kinder{a.Base, a, d} {
		fmt.Println(k.Kind())
	}
	fmt.Printf("%+v\n", a.Base)
	fmt.Printf("%v\n", d.Tricks)
}
