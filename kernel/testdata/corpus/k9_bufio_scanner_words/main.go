package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"
)

const text = `the quick brown fox
jumps over the lazy dog

The dog sleeps; the fox runs.
`

func commaSplit(data []byte, atEOF bool) (int, []byte, error) {
	if i := bytes.IndexByte(data, ','); i >= 0 {
		return i + 1, bytes.TrimSpace(data[:i]), nil
	}
	if atEOF && len(data) > 0 {
		return len(data), bytes.TrimSpace(data), nil
	}
	return 0, nil, nil
}

func main() {
	sc := bufio.NewScanner(strings.NewReader(text))
	lines, blank := 0, 0
	for sc.Scan() {
		lines++
		if strings.TrimSpace(sc.Text()) == "" {
			blank++
		}
	}
	fmt.Println("lines", lines, "blank", blank, sc.Err())

	freq := map[string]int{}
	ws := bufio.NewScanner(strings.NewReader(text))
	ws.Split(bufio.ScanWords)
	for ws.Scan() {
		w := strings.ToLower(strings.Trim(ws.Text(), ".;"))
		freq[w]++
	}
	type wc struct {
		w string
		n int
	}
	var list []wc
	for w, n := range freq {
		list = append(list, wc{w, n})
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].n != list[j].n {
			return list[i].n > list[j].n
		}
		return list[i].w < list[j].w
	})
	for _, e := range list[:4] {
		fmt.Println(e.w, e.n)
	}

	rs := bufio.NewScanner(strings.NewReader("héllo"))
	rs.Split(bufio.ScanRunes)
	var runes []string
	for rs.Scan() {
		runes = append(runes, rs.Text())
	}
	fmt.Printf("%q\n", runes)

	cs := bufio.NewScanner(strings.NewReader("a, b ,c,, d"))
	cs.Split(commaSplit)
	var parts []string
	for cs.Scan() {
		parts = append(parts, cs.Text())
	}
	fmt.Printf("%q\n", parts)

	long := bufio.NewScanner(strings.NewReader(strings.Repeat("x", 100) + "\nshort\n"))
	long.Buffer(make([]byte, 16), 32)
	for long.Scan() {
		fmt.Println("line", long.Text())
	}
	fmt.Println(long.Err(), errors.Is(long.Err(), bufio.ErrTooLong))

	r := bufio.NewReader(strings.NewReader("k1=v1\nk2=v2\nlast"))
	for {
		line, err := r.ReadString('\n')
		fmt.Printf("%q %v\n", line, err)
		if err != nil {
			break
		}
	}
}
