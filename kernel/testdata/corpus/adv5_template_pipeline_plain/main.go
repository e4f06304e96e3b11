package main

import (
	"os"
	"strings"
	"text/template"
)

type Item struct {
	Name  string
	Price float64
	Qty   int
	Tags  []string
}

type Order struct {
	ID       int
	Customer string
	Items    []Item
	Notes    map[string]string
}

const tmpl = `Order #{{.ID}} for {{.Customer | upper}}
{{range $i, $it := .Items -}}
{{add $i 1}}. {{printf "%-8s" $it.Name}} {{$it.Qty}} x {{printf "%.2f" $it.Price}}{{if $it.Tags}} [{{join $it.Tags ", "}}]{{end}}
{{end -}}
{{with .Notes}}Notes:{{range $k, $v := .}} {{$k}}={{$v}};{{end}}{{else}}No notes{{end}}
Total: {{total .Items | printf "%.2f"}}
{{- if gt (len .Items) 2}} (bulk){{end}}
{{define "footer"}}-- {{.}} --{{end}}{{template "footer" "thanks"}}
`

func main() {
	funcs := template.FuncMap{
		"upper": strings.ToUpper,
		"join":  strings.Join,
		"add":   func(a, b int) int { return a + b },
		"total": func(items []Item) float64 {
			t := 0.0
			for _, it := range items {
				t += it.Price * float64(it.Qty)
			}
			return t
		},
	}
	t := template.Must(template.New("order").Funcs(funcs).Parse(tmpl))
	orders := []Order{
		{ID: 7, Customer: "ada", Items: []Item{{"pen", 1.5, 4, nil}, {"pad", 3.25, 2, []string{"paper", "a5"}}, {"ink", 9.99, 1, []string{"blue"}}}, Notes: map[string]string{"gift": "yes", "door": "back"}},
		{ID: 8, Customer: "bob", Items: []Item{{"mug", 7, 1, nil}}},
	}
	for _, o := range orders {
		if err := t.Execute(os.Stdout, o); err != nil {
			panic(err)
		}
	}
	err := template.Must(template.New("bad").Parse("{{index .Notes \"gift\"}} {{len .Items}}\n")).Execute(os.Stdout, orders[0])
	if err != nil {
		os.Stdout.WriteString("error: " + err.Error() + "\n")
	}
}
