// An embedded struct is promoted by encoding/json: its fields sit at the
// top level. yaegi built the struct without marking the field embedded
// and nested it under "Meta"; the kernel routes such blocks to compiled.
package main

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sync"
)

type Meta struct {
	Created string `json:"created"`
	Version int    `json:"version"`
}

type Doc struct {
	Meta
	Title string `json:"title"`
}

type Guarded struct {
	sync.Mutex
	N int
}

func main() {
	b, err := json.Marshal(Doc{Meta{"2024-01-02", 3}, "notes"})
	fmt.Println(string(b), err)
	var d Doc
	err = json.Unmarshal([]byte(`{"created":"x","version":7,"title":"y"}`), &d)
	fmt.Println(d.Created, d.Version, d.Title, err)
	g, _ := json.Marshal(&Guarded{N: 1})
	fmt.Println(string(g))
	f := reflect.TypeOf(Doc{}).Field(0)
	fmt.Println(f.Name, f.Anonymous)
}
