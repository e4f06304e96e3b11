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

func main() {
	t := template.Must(template.New("list").Funcs(template.FuncMap{"upper": strings.ToUpper, "join": strings.Join}).Parse(
		"{{range $i, $it := .}}{{$i}}: {{upper $it.Name}} ${{printf \"%.2f\" $it.Price}}{{if $it.Tags}} [{{join $it.Tags \",\"}}]{{end}}\n{{end}}"))
	items := []Item{{"apple", 1.5, []string{"fruit"}}, {"bread", 3, nil}}
	if err := t.Execute(os.Stdout, items); err != nil {
		panic(err)
	}
}
