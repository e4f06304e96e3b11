package main

import (
	"encoding/json"
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

	raw := `{"name":"x","pos":{"lat":1.5,"lng":-2},"items":[{"id":1},{"id":2}]}`
	var v struct {
		Name string `json:"name"`
		Pos  struct {
			Lat, Lng float64
		} `json:"pos"`
		Items []struct {
			ID int `json:"id"`
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		fmt.Println("err", err)
	}
	fmt.Println(v.Name, v.Pos.Lat, v.Pos.Lng, len(v.Items), v.Items[1].ID)
	out, _ := json.Marshal(struct {
		OK    bool     `json:"ok"`
		Count int      `json:"count,omitempty"`
		List  []string `json:"list"`
	}{OK: true, List: []string{}})
	fmt.Println(string(out))
	pair := struct{ a, b int }{1, 2}
	pair2 := pair
	pair2.b = 3
	fmt.Println(pair, pair2, pair == pair2)
}
