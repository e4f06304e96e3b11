package main

import (
	"fmt"

	"golang.org/x/text/language"
)

func main() {
	for _, s := range []string{"en-US", "pt_BR", "zh-Hant-TW", "nl", "sr-Latn"} {
		t, err := language.Parse(s)
		if err != nil {
			fmt.Println(s, "error:", err)
			continue
		}
		base, _ := t.Base()
		region, _ := t.Region()
		script, _ := t.Script()
		fmt.Println(t, base, region, script)
	}
	m := language.NewMatcher([]language.Tag{language.English, language.French, language.German})
	tag, idx, conf := m.Match(language.Make("fr-CA"), language.Make("en"))
	fmt.Println(tag, idx, conf)
	_, err := language.Parse("xx-!!")
	fmt.Println(err != nil)
}
