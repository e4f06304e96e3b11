package main

import (
	"fmt"
	"os"
	"strings"
	"text/template"
)

type Item struct {
	Name  string
	Qty   int
	Price float64
	Tags  []string
}

type Order struct {
	ID       int
	Customer string
	Items    []Item
	Notes    map[string]string
	Paid     bool
}

const page = `{{define "item"}}- {{.Name | printf "%-8s"}} x{{.Qty}} @ {{printf "%.2f" .Price}}{{if .Tags}} [{{join .Tags ", "}}]{{end}}{{end -}}
Order #{{.ID}} for {{upper .Customer}}
{{range $i, $it := .Items}}{{if $i}}
{{end}}{{template "item" $it}}{{end}}
Total: {{total .Items | printf "%.2f"}}
{{with .Notes}}Notes:{{range $k, $v := .}} {{$k}}={{$v}}{{end}}{{else}}No notes{{end}}
{{if .Paid}}PAID{{else if gt (len .Items) 2}}DUE (large){{else}}DUE{{end}}
`

func main() {
	funcs := template.FuncMap{
		"upper": strings.ToUpper,
		"join":  strings.Join,
		"total": func(items []Item) float64 {
			sum := 0.0
			for _, it := range items {
				sum += float64(it.Qty) * it.Price
			}
			return sum
		},
	}
	t := template.Must(template.New("page").Funcs(funcs).Parse(page))
	orders := []Order{
		{ID: 1, Customer: "ada", Items: []Item{{"pen", 3, 1.5, nil}, {"ink", 1, 7.25, []string{"blue", "refill"}}}, Notes: map[string]string{"gift": "yes", "door": "back"}, Paid: true},
		{ID: 2, Customer: "bob", Items: []Item{{"cup", 2, 4, nil}, {"tea", 5, 2.2, []string{"green"}}, {"pot", 1, 19.99, nil}}},
		{ID: 3, Customer: "cy", Items: []Item{{"map", 1, 12, nil}}},
	}
	for _, o := range orders {
		if err := t.Execute(os.Stdout, o); err != nil {
			fmt.Println("error:", err)
		}
	}
	_, err := template.New("bad").Parse("{{.Missing")
	fmt.Println("parse error:", err != nil)
	err = template.Must(template.New("x").Option("missingkey=error").Parse("{{.k}}\n")).Execute(os.Stdout, map[string]int{"j": 1})
	fmt.Println("exec error:", err)
}
