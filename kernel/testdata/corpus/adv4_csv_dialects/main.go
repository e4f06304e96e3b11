// encoding/csv: semicolons, comments, lazy quotes, ragged rows and the
// errors a bad file gives, and a writer that quotes.
package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	in := "# exported\nid;name;amount\n1;\"Smith; John\";12,50\n2;\"Line\nbreak\";7\n\n3;plain;\"\"\"quoted\"\"\"\n"
	r := csv.NewReader(strings.NewReader(in))
	r.Comma = ';'
	r.Comment = '#'
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println("err:", err)
			break
		}
		line, col := r.FieldPos(1)
		fmt.Printf("%d %q at %d:%d offset %d\n", len(rec), rec, line, col, r.InputOffset())
	}

	ragged := "a,b,c\n1,2\n3,4,5\n"
	r = csv.NewReader(strings.NewReader(ragged))
	_, err := r.ReadAll()
	fmt.Println(err)
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		fmt.Println(pe.StartLine, pe.Line, pe.Column, errors.Is(err, csv.ErrFieldCount))
	}
	r = csv.NewReader(strings.NewReader(ragged))
	r.FieldsPerRecord = -1
	all, err := r.ReadAll()
	fmt.Println(all, err)

	bad := "a,\"b\nc,d\n"
	_, err = csv.NewReader(strings.NewReader(bad)).ReadAll()
	fmt.Println(err)
	lazy := csv.NewReader(strings.NewReader("a,b\"c\"d,e\n"))
	lazy.LazyQuotes = true
	rec, err := lazy.Read()
	fmt.Printf("%q %v\n", rec, err)
	_, err = csv.NewReader(strings.NewReader("a,b\"c\"d,e\n")).Read()
	fmt.Println(err)
	trim := csv.NewReader(strings.NewReader("  x,  \"y\"\n"))
	trim.TrimLeadingSpace = true
	rec, err = trim.Read()
	fmt.Printf("%q %v\n", rec, err)

	w := csv.NewWriter(os.Stdout)
	_ = w.Write([]string{"id", "note", "empty"})
	_ = w.Write([]string{"1", "has,comma", ""})
	_ = w.Write([]string{"2", "has \"quote\"", " lead"})
	_ = w.Write([]string{"3", "multi\nline", "#"})
	w.Flush()
	fmt.Println(w.Error())
	var sb strings.Builder
	w = csv.NewWriter(&sb)
	w.Comma = '\t'
	w.UseCRLF = true
	_ = w.WriteAll([][]string{{"a", "b c"}, {"d\te", "f"}})
	fmt.Printf("%q\n", sb.String())
}
