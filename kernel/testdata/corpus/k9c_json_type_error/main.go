package main

import (
	"encoding/json"
	"fmt"
)

type Address struct {
	City string `json:"city"`
}

type Person struct {
	Name string  `json:"name"`
	Age  int     `json:"age"`
	Addr Address `json:"addr"`
}

func main() {
	var p Person
	err := json.Unmarshal([]byte(`{"name":"a","age":3}`), &p)
	fmt.Println("ok:", err, p.Name, p.Age)
	if err := json.Unmarshal([]byte(`{"age":"old"}`), &p); err != nil {
		fmt.Println("decode:", err)
	}
	err = json.Unmarshal([]byte(`{"addr":{"city":5}}`), &p)
	fmt.Println(err)
	err = json.Unmarshal([]byte(`[1]`), &p)
	fmt.Println(err)
}
