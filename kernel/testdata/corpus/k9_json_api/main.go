package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

type Meta struct {
	Created string `json:"created"`
	Version int    `json:"version,omitempty"`
}

type Address struct {
	Street string `json:"street"`
	City   string `json:"city"`
}

type User struct {
	Meta
	ID       int64             `json:"id,string"`
	Name     string            `json:"name"`
	Email    string            `json:"email,omitempty"`
	Password string            `json:"-"`
	Address  *Address          `json:"address,omitempty"`
	Roles    []string          `json:"roles"`
	Extra    json.RawMessage   `json:"extra,omitempty"`
	Labels   map[string]string `json:"labels,omitempty"`
	Score    float64           `json:"score"`
}

func main() {
	u := User{Meta: Meta{Created: "2024-01-02"}, ID: 42, Name: "Ada", Password: "secret",
		Roles: []string{"admin", "dev"}, Extra: json.RawMessage(`{"theme":"dark"}`),
		Labels: map[string]string{"z": "last", "a": "first"}, Score: 9.5}
	b, err := json.Marshal(u)
	fmt.Println(string(b), err)
	b, _ = json.MarshalIndent(User{Name: "Bob", Address: &Address{"Main St 1", "Oslo"}}, "", "  ")
	fmt.Println(string(b))

	in := `{"created":"2023-05-06","version":3,"id":"7","name":"Cy","password":"x","roles":["ops"],"address":{"street":"S","city":"C"},"extra":[1,2],"score":1e2}`
	var back User
	if err := json.Unmarshal([]byte(in), &back); err != nil {
		fmt.Println("unmarshal:", err)
	}
	fmt.Printf("%s v%d id=%d name=%s pw=%q city=%s extra=%s score=%v\n", back.Created, back.Version, back.ID, back.Name, back.Password, back.Address.City, back.Extra, back.Score)

	var anyv map[string]any
	_ = json.Unmarshal([]byte(in), &anyv)
	keys := make([]string, 0, len(anyv))
	for k := range anyv {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Printf("%s:%T ", k, anyv[k])
	}
	fmt.Println()

	dec := json.NewDecoder(strings.NewReader(`{"name":"D","nope":1}`))
	dec.DisallowUnknownFields()
	var strict User
	fmt.Println("strict:", dec.Decode(&strict))

	var bad User
	err = json.Unmarshal([]byte(`{"name": 5}`), &bad)
	fmt.Println("type error:", err)

	stream := json.NewDecoder(strings.NewReader(`{"id":"1","name":"a"} {"id":"2","name":"b"}`))
	for stream.More() {
		var x User
		if err := stream.Decode(&x); err != nil {
			fmt.Println(err)
			break
		}
		fmt.Println(x.ID, x.Name)
	}
}
