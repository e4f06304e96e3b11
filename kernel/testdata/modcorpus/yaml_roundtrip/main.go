package main

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

type Source struct {
	Name    string            `yaml:"name"`
	Tables  []string          `yaml:"tables"`
	Options map[string]string `yaml:"options,omitempty"`
	Limit   int               `yaml:"limit"`
}

func main() {
	doc := `
name: warehouse
tables: [orders, customers]
options:
  sslmode: disable
  host: db.local
limit: 500
`
	var s Source
	if err := yaml.Unmarshal([]byte(doc), &s); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%+v\n", s)
	s.Tables = append(s.Tables, "payments")
	out, _ := yaml.Marshal(s)
	fmt.Print(string(out))
	var bad Source
	fmt.Println(yaml.Unmarshal([]byte("limit: [1"), &bad) != nil)
}
