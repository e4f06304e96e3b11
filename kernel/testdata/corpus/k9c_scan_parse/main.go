package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"
)

var ErrBad = errors.New("bad line")

type Entry struct {
	Name    string
	Qty     int
	Price   float64
	Timeout time.Duration
}

func parse(line string) (Entry, error) {
	var e Entry
	n, err := fmt.Sscanf(line, "%s %d %f", &e.Name, &e.Qty, &e.Price)
	if err != nil || n != 3 {
		return e, fmt.Errorf("parse %q: %w", line, ErrBad)
	}
	e.Timeout = time.Duration(e.Qty) * time.Second
	return e, nil
}

func main() {
	in := "apple 3 0.5\npear x 1\nfig 10 2.25\n\n"
	sc := bufio.NewScanner(strings.NewReader(in))
	var entries []Entry
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		e, err := parse(line)
		if errors.Is(err, ErrBad) {
			fmt.Println("skip:", err)
			continue
		}
		entries = append(entries, e)
	}
	fmt.Printf("%v\n%+v\n", entries, entries[0])
	tw := tabwriter.NewWriter(os.Stdout, 0, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "name\tqty\ttotal\t")
	for _, e := range entries {
		fmt.Fprintf(tw, "%s\t%d\t%.2f\t\n", e.Name, e.Qty, float64(e.Qty)*e.Price)
	}
	tw.Flush()
	var a, b int
	var w string
	k, err := fmt.Sscan("7 8 nine", &a, &b, &w)
	fmt.Println(k, err, a, b, w)
	r := bufio.NewReader(strings.NewReader("l1\nl2"))
	for {
		s, err := r.ReadString('\n')
		fmt.Printf("%q %v\n", s, err)
		if err == io.EOF {
			break
		}
	}
	var sb strings.Builder
	bw := bufio.NewWriter(&sb)
	fmt.Fprintf(bw, "%05.1f|%x", 3.14159, "go")
	bw.Flush()
	fmt.Println(sb.String())
}
