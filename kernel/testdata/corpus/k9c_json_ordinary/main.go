package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

type Address struct {
	Street string `json:"street"`
	City   string `json:"city,omitempty"`
}

type Person struct {
	Name     string             `json:"name"`
	Age      int                `json:"age"`
	Email    string             `json:"email,omitempty"`
	Tags     []string           `json:"tags"`
	Address  *Address           `json:"address,omitempty"`
	Extra    map[string]any     `json:"extra,omitempty"`
	Skip     string             `json:"-"`
	Scores   map[string]float64 `json:"scores"`
	Verified bool               `json:"verified,string"`
}

func main() {
	p := Person{Name: "Ann", Age: 30, Tags: nil, Address: &Address{Street: "Main 1"}, Skip: "x",
		Scores: map[string]float64{"b": 2.5, "a": 1}, Verified: true}
	b, err := json.Marshal(p)
	fmt.Println(string(b), err)
	b, _ = json.MarshalIndent(map[string]any{"z": 1, "a": []int{1, 2}, "m": nil}, "", "  ")
	fmt.Println(string(b))

	var q Person
	err = json.Unmarshal([]byte(`{"name":"Bob","age":41,"tags":["x"],"extra":{"n":1.5,"s":"t","l":[1,"a"]},"verified":"false","unknown":1}`), &q)
	fmt.Println(err, q.Name, q.Age, q.Tags, q.Extra["n"], q.Extra["l"], q.Verified, q.Address == nil)

	var anyv any
	json.Unmarshal([]byte(`[1, 2.5, "x", true, null, {"k": [1]}]`), &anyv)
	fmt.Println(anyv)

	var bad struct{ A int }
	err = json.Unmarshal([]byte(`{"A": 1`), &bad)
	fmt.Println(err)

	dec := json.NewDecoder(strings.NewReader(`{"name":"a"} {"name":"b"}`))
	for dec.More() {
		var x Person
		if err := dec.Decode(&x); err != nil {
			fmt.Println(err)
			break
		}
		fmt.Print(x.Name, " ")
	}
	fmt.Println()
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	enc.Encode([]Address{{"s", "c"}})
	raw := json.RawMessage(`{"pre":"computed"}`)
	b, _ = json.Marshal(struct {
		R json.RawMessage `json:"r"`
		H string          `json:"h"`
	}{raw, "<&>"})
	fmt.Println(string(b))
}
