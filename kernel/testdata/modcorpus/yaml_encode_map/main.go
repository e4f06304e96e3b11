package main

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

func main() {
	doc := map[string]any{
		"pipeline":   "clv",
		"partitions": map[string]any{"interval": "day", "zone": "Europe/Paris"},
		"blocks":     []any{map[string]any{"id": "raw_orders", "kind": "go"}, map[string]any{"id": "metrics", "kind": "sql", "upstream": []string{"raw_orders"}}},
		"retries":    3,
		"enabled":    true,
		"ratio":      0.25,
	}
	out, err := yaml.Marshal(doc)
	fmt.Print(string(out))
	fmt.Println(err)
	var back map[string]any
	if err := yaml.Unmarshal(out, &back); err != nil {
		fmt.Println(err)
	}
	fmt.Println(back["retries"], back["enabled"], back["ratio"], back["partitions"].(map[string]any)["zone"])
}
