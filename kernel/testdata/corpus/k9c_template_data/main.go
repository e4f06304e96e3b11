package main

import (
	"os"
	"strings"
	"text/template"
)

type Item struct {
	Name  string
	Price float64
	Tags  []string
}

type Order struct {
	ID    int
	Items []Item
	Meta  map[string]string
	Note  *string
}

func main() {
	funcs := template.FuncMap{"upper": strings.ToUpper, "join": strings.Join}
	t := template.Must(template.New("o").Funcs(funcs).Parse(`Order {{.ID}}
{{range $i, $it := .Items}}{{$i}}. {{upper $it.Name}} {{printf "%.2f" $it.Price}}{{if $it.Tags}} [{{join $it.Tags ","}}]{{end}}
{{end}}{{with .Meta}}{{range $k, $v := .}}{{$k}}={{$v}};{{end}}{{end}}
{{if .Note}}note: {{.Note}}{{else}}no note{{end}}
{{len .Items}} items{{/* a comment */}}
`))
	o := Order{ID: 7, Items: []Item{{"tea", 3.5, []string{"hot"}}, {"cake", 2, nil}}, Meta: map[string]string{"b": "2", "a": "1"}}
	if err := t.Execute(os.Stdout, o); err != nil {
		panic(err)
	}
	m := map[string]any{"n": 3, "list": []int{1, 2}}
	template.Must(template.New("m").Parse("{{.n}} {{range .list}}<{{.}}>{{end}} {{index .list 1}}\n")).Execute(os.Stdout, m)
}
