package main

import (
	"bufio"
	"fmt"
	"sort"
	"strings"
	"unicode"
)

const text = `The quick brown fox jumps over the lazy dog.
The dog barks; the fox runs!
"Quick," said the dog's owner -- quick, quick.

Last line without newline`

func main() {
	sc := bufio.NewScanner(strings.NewReader(text))
	lineNo := 0
	blank := 0
	for sc.Scan() {
		lineNo++
		if strings.TrimSpace(sc.Text()) == "" {
			blank++
		}
	}
	fmt.Println("lines", lineNo, "blank", blank, sc.Err())

	ws := bufio.NewScanner(strings.NewReader(text))
	ws.Split(bufio.ScanWords)
	freq := map[string]int{}
	total := 0
	for ws.Scan() {
		w := strings.ToLower(strings.TrimFunc(ws.Text(), func(r rune) bool {
			return !unicode.IsLetter(r) && r != '\''
		}))
		if w == "" {
			continue
		}
		freq[w]++
		total++
	}
	type kv struct {
		k string
		v int
	}
	var kvs []kv
	for k, v := range freq {
		kvs = append(kvs, kv{k, v})
	}
	sort.Slice(kvs, func(i, j int) bool {
		if kvs[i].v != kvs[j].v {
			return kvs[i].v > kvs[j].v
		}
		return kvs[i].k < kvs[j].k
	})
	fmt.Println("words", total, "distinct", len(kvs))
	for _, e := range kvs[:6] {
		fmt.Printf("%-6s %d\n", e.k, e.v)
	}

	rs := bufio.NewScanner(strings.NewReader("héllo"))
	rs.Split(bufio.ScanRunes)
	var runes []string
	for rs.Scan() {
		runes = append(runes, rs.Text())
	}
	fmt.Printf("%q\n", runes)

	cs := bufio.NewScanner(strings.NewReader("a,b,,c"))
	cs.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		for i, b := range data {
			if b == ',' {
				return i + 1, data[:i], nil
			}
		}
		if atEOF && len(data) > 0 {
			return len(data), data, nil
		}
		return 0, nil, nil
	})
	var fields []string
	for cs.Scan() {
		fields = append(fields, cs.Text())
	}
	fmt.Printf("%q %d\n", fields, len(fields))

	br := bufio.NewReader(strings.NewReader("key=value\nother=thing\n"))
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			break
		}
		k, v, _ := strings.Cut(strings.TrimRight(line, "\n"), "=")
		fmt.Printf("%s -> %s\n", k, v)
	}
}
