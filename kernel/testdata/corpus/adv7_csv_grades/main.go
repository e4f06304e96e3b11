package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

const data = `name,math,art,"notes, misc"
ann,90,85,"likes ""puzzles"""
bob,72,91,
carol,88,x,late
dave,100,100,"multi
line"
`

type student struct {
	name  string
	math  int
	art   int
	notes string
}

func main() {
	r := csv.NewReader(strings.NewReader(data))
	header, err := r.Read()
	fmt.Printf("%q %v\n", header, err)
	var students []student
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			fmt.Println("read:", err)
			break
		}
		m, err1 := strconv.Atoi(rec[1])
		a, err2 := strconv.Atoi(rec[2])
		if err := errors.Join(err1, err2); err != nil {
			line, _ := r.FieldPos(0)
			fmt.Printf("skip %s (line %d): %v\n", rec[0], line, err)
			continue
		}
		students = append(students, student{rec[0], m, a, rec[3]})
	}
	w := csv.NewWriter(os.Stdout)
	w.Write([]string{"name", "avg", "notes"})
	for _, s := range students {
		avg := float64(s.math+s.art) / 2
		w.Write([]string{s.name, strconv.FormatFloat(avg, 'f', 1, 64), s.notes})
	}
	w.Flush()
	fmt.Println(w.Error())

	r2 := csv.NewReader(strings.NewReader("a;b;c\n# comment\nd;e\n"))
	r2.Comma = ';'
	r2.Comment = '#'
	r2.FieldsPerRecord = -1
	all, err := r2.ReadAll()
	fmt.Println(all, len(all), err)

	r3 := csv.NewReader(strings.NewReader("a,b\nc\n"))
	_, err = r3.ReadAll()
	fmt.Println(err)
	var pe *csv.ParseError
	fmt.Println(errors.As(err, &pe), pe.Line, errors.Is(err, csv.ErrFieldCount))

	var sb strings.Builder
	cw := csv.NewWriter(&sb)
	cw.UseCRLF = true
	cw.Comma = '\t'
	cw.WriteAll([][]string{{"x y", "has\ttab"}, {"quote\"d", ""}})
	fmt.Printf("%q\n", sb.String())
}
