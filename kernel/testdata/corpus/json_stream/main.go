package main

import (
	"encoding/json"
	"fmt"
	"strings"
)

type Event struct {
	Kind  string  `json:"kind"`
	Value float64 `json:"value"`
}

func main() {
	dec := json.NewDecoder(strings.NewReader(`{"kind":"a","value":1}
{"kind":"b","value":2.5}
{"kind":"a","value":4}`))
	totals := map[string]float64{}
	for dec.More() {
		var e Event
		if err := dec.Decode(&e); err != nil {
			fmt.Println("err", err)
			return
		}
		totals[e.Kind] += e.Value
	}
	out, _ := json.Marshal(totals)
	fmt.Println(string(out))
	raw := json.RawMessage(`{"x":1}`)
	b, _ := json.Marshal(map[string]any{"raw": raw, "n": nil})
	fmt.Println(string(b))
}
