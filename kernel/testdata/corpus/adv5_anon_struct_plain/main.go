package main

import (
	"fmt"
	"sort"
)

type Meta struct {
	Version int
	Tags    []string
}

type Doc struct {
	Meta
	Title string
	Body  struct {
		Text  string
		Words int
	}
	Extra map[string]struct{ A, B int }
}

func main() {
	var d Doc
	d.Version = 2
	d.Tags = append(d.Tags, "x", "y")
	d.Title = "hello"
	d.Body.Text = "some text here"
	d.Body.Words = 3
	d.Extra = map[string]struct{ A, B int }{"k": {1, 2}}
	fmt.Println(d.Meta.Version, d.Version, d.Tags, d.Body.Words, d.Extra["k"].B)
	fmt.Printf("%v\n%+v\n", d, d)

	config := struct {
		Name  string
		Ports []int
		TLS   struct{ Cert, Key string }
	}{Name: "svc", Ports: []int{80, 443}}
	config.TLS.Cert = "c.pem"
	fmt.Printf("%+v\n", config)

	people := []struct {
		Name string
		Age  int
	}{{"b", 30}, {"a", 25}, {"c", 35}}
	sort.Slice(people, func(i, j int) bool { return people[i].Age < people[j].Age })
	fmt.Println(people)

	pair := struct{ a, b int }{1, 2}
	pair2 := pair
	pair2.b = 3
	fmt.Println(pair, pair2, pair == pair2)
}
