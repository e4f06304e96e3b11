package main

import (
	"encoding/json"
	"fmt"
	"sort"
)

type Row map[string]any

// invert flips a setting or negates a number, whatever the row holds.
func invert(v any) any {
	switch x := v.(type) {
	case bool:
		return !x
	case int:
		return -x
	case float64:
		return -x
	}
	return v
}

func delta(prev, cur float64) (out any) {
	if cur < prev {
		out = -(prev - cur)
		return
	}
	out = cur - prev
	return
}

func main() {
	balance := 120
	refund := 35.5
	enabled := true
	row := Row{"id": 7}
	row["debit"] = -balance
	row["credit"] = -refund
	row["enabled"] = !enabled
	row["mask"] = ^0x0f
	row["delta"] = delta(10, 4)
	id, shift := 1234, 3
	row["bucket"] = id % 10
	row["page"] = id >> shift

	keys := make([]string, 0, len(row))
	for k := range row {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Printf("%s=%v ", k, row[k])
	}
	fmt.Println()
	fmt.Println(invert(true), invert(5), invert(2.5), invert("s"))

	values := []any{nil, nil}
	values[0] = -len(keys)
	var last any
	last = !(len(keys) > 3)
	values[1] = last
	fmt.Println(values)

	b, _ := json.Marshal(row)
	fmt.Println(string(b))
	fmt.Println("done")
}
