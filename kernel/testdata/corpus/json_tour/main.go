package main

import (
	"encoding/json"
	"fmt"
	"os"
)

type Address struct {
	City string `json:"city"`
	Zip  string `json:"zip,omitempty"`
}

type Person struct {
	Name    string   `json:"name"`
	Age     int      `json:"age"`
	Emails  []string `json:"emails"`
	Address *Address `json:"address,omitempty"`
	secret  string
}

func main() {
	p := Person{Name: "Ann", Age: 41, Emails: []string{"a@x.io"}, Address: &Address{City: "Oslo"}}
	b, err := json.Marshal(p)
	fmt.Println(string(b), err)
	var q Person
	err = json.Unmarshal([]byte(`{"name":"Bob","age":29,"emails":["b@y.io","c@z.io"]}`), &q)
	fmt.Println(q.Name, q.Age, q.Emails, q.Address == nil, err)
	var anyv map[string]any
	json.Unmarshal([]byte(`{"n":1.5,"list":[1,"two",true],"obj":{"k":null}}`), &anyv)
	fmt.Println(anyv["n"], anyv["list"], anyv["obj"])
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	enc.Encode(map[string]int{"b": 2, "a": 1})
	var bad Person
	fmt.Println(json.Unmarshal([]byte(`{"age":"x"}`), &bad) != nil)
}
