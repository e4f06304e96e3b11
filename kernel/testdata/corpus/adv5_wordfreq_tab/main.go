package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strings"
	"text/tabwriter"
	"unicode"
)

const text = `It was the best of times, it was the worst of times,
it was the age of wisdom, it was the age of foolishness,
it was the epoch of belief, it was the epoch of incredulity,
it was the season of Light, it was the season of Darkness.`

type wordCount struct {
	word  string
	count int
	lines map[int]bool
}

func main() {
	sc := bufio.NewScanner(strings.NewReader(text))
	counts := map[string]*wordCount{}
	lineNo := 0
	for sc.Scan() {
		lineNo++
		words := strings.FieldsFunc(sc.Text(), func(r rune) bool { return !unicode.IsLetter(r) })
		for _, w := range words {
			w = strings.ToLower(w)
			wc, ok := counts[w]
			if !ok {
				wc = &wordCount{word: w, lines: map[int]bool{}}
				counts[w] = wc
			}
			wc.count++
			wc.lines[lineNo] = true
		}
	}
	list := make([]*wordCount, 0, len(counts))
	for _, wc := range counts {
		list = append(list, wc)
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].count != list[j].count {
			return list[i].count > list[j].count
		}
		return list[i].word < list[j].word
	})
	tw := tabwriter.NewWriter(os.Stdout, 0, 8, 2, ' ', tabwriter.AlignRight|tabwriter.Debug)
	fmt.Fprintln(tw, "word\tcount\tlines\t")
	for _, wc := range list[:8] {
		var ls []int
		for l := range wc.lines {
			ls = append(ls, l)
		}
		sort.Ints(ls)
		fmt.Fprintf(tw, "%s\t%d\t%v\t\n", wc.word, wc.count, ls)
	}
	tw.Flush()
	fmt.Println("distinct:", len(counts), "lines:", lineNo)

	ws := bufio.NewScanner(strings.NewReader("one  two\tthree\nfour"))
	ws.Split(bufio.ScanWords)
	n := 0
	for ws.Scan() {
		n++
	}
	fmt.Println("words:", n)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	fmt.Fprintf(w, "buffered %d bytes\n", w.Buffered())
}
