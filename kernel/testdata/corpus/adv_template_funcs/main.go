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

func (i Item) Expensive() bool { return i.Price > 10 }

const tpl = `{{define "item"}}- {{.Name | upper}} ${{printf "%.2f" .Price}}{{if .Expensive}} (pricey){{end}}{{end -}}
Report for {{.Owner}}
{{range $i, $it := .Items}}{{if $i}}
{{end}}{{template "item" $it}}{{with .Tags}} [{{join . ", "}}]{{else}} [no tags]{{end}}{{end}}
{{with .Missing}}never{{else}}nothing missing{{end}}
Total: {{len .Items}} items, first={{(index .Items 0).Name}}
{{- range .Empty}}x{{else}}
empty range{{end}}
{{$n := 0}}{{range .Items}}{{$n = add $n 1}}{{end}}counted {{$n}}
{{eq .Owner "ann" | not}} {{and true .Owner}} {{or "" "fallback"}} {{lt 1 2}}
`

func main() {
	t := template.Must(template.New("r").Funcs(template.FuncMap{
		"upper": strings.ToUpper,
		"join":  strings.Join,
		"add":   func(a, b int) int { return a + b },
	}).Parse(tpl))
	data := map[string]any{
		"Owner":   "ann",
		"Items":   []Item{{"pen", 1.5, []string{"office", "cheap"}}, {"lamp", 25, nil}},
		"Missing": "",
		"Empty":   []int{},
	}
	if err := t.Execute(os.Stdout, data); err != nil {
		panic(err)
	}
	err := template.Must(template.New("e").Parse("{{.Nope.Deeper}}\n")).Execute(os.Stdout, Item{})
	os.Stdout.WriteString(strings.SplitN(err.Error(), ":", 2)[0] + "\n")
}
