// %v and %+v of nested structs, slices of structs, and pointers at the
// top level (&{...}); nil pointers print <nil>.
package main

import "fmt"

type Addr struct {
	City string
	Zip  int
}

type Person struct {
	Name   string
	Age    int
	Home   Addr
	Work   *Addr
	Tags   []string
	Scores map[string]int
}

type Team struct {
	Lead    Person
	Members []Person
	Size    [2]int
}

func main() {
	p := Person{Name: "Ann", Age: 31, Home: Addr{"Oslo", 150}, Tags: []string{"a", "b"}, Scores: map[string]int{"z": 1, "a": 2}}
	fmt.Printf("%v\n%+v\n", p, p)
	fmt.Printf("%v\n%+v\n", &p.Home, &p.Home)
	var np *Person
	fmt.Printf("%v %+v\n", np, np)
	t := Team{Lead: p, Members: []Person{{Name: "Bo"}, {Name: "Cy", Age: 2}}, Size: [2]int{2, 3}}
	fmt.Printf("%+v\n", t)
	fmt.Println(t.Members)
	anon := struct {
		ID   int
		Pair struct{ A, B string }
	}{ID: 7}
	anon.Pair.A = "left"
	fmt.Printf("%v %+v\n", anon, anon)
	list := []*Addr{nil}
	fmt.Println(len(list), list[0] == nil)
	fmt.Printf("%s\n", Addr{"Rome", 1})
	fmt.Printf("%d\n", Addr{"Rome", 1})
	fmt.Printf("%q\n", []string{"a b", "c"})
}
