package main

import (
	"encoding/csv"
	"encoding/xml"
	"fmt"
	"os"
	"strings"
)

type Book struct {
	XMLName xml.Name `xml:"book"`
	ID      string   `xml:"id,attr"`
	Title   string   `xml:"title"`
	Authors []string `xml:"authors>author"`
	Price   float64  `xml:"price,omitempty"`
	Note    string   `xml:",comment"`
}

type Library struct {
	XMLName xml.Name `xml:"library"`
	Books   []Book   `xml:"book"`
}

func main() {
	lib := Library{Books: []Book{
		{ID: "b1", Title: "Go & You", Authors: []string{"Ann", "Bo"}, Price: 12.5, Note: " first "},
		{ID: "b2", Title: "<Tags>", Authors: nil},
	}}
	out, err := xml.MarshalIndent(lib, "", "  ")
	fmt.Println(string(out), err)
	var back Library
	err = xml.Unmarshal(out, &back)
	fmt.Println(err, len(back.Books), back.Books[0].Authors, back.Books[1].Title, back.Books[0].Price)

	w := csv.NewWriter(os.Stdout)
	w.Write([]string{"id", "title", "authors"})
	for _, b := range lib.Books {
		w.Write([]string{b.ID, b.Title, strings.Join(b.Authors, ";")})
	}
	w.Write([]string{"x", "has,comma", "has \"quote\""})
	w.Flush()
	fmt.Println(w.Error())
	var sb strings.Builder
	tw := csv.NewWriter(&sb)
	tw.Comma = '\t'
	tw.UseCRLF = true
	tw.WriteAll([][]string{{"a", "b c"}, {"1", ""}})
	fmt.Printf("%q\n", sb.String())
	r := csv.NewReader(strings.NewReader(sb.String()))
	r.Comma = '\t'
	recs, err := r.ReadAll()
	fmt.Println(recs, err)
}
