package main

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
)

func commaSplit(data []byte, atEOF bool) (advance int, token []byte, err error) {
	if i := bytes.IndexByte(data, ','); i >= 0 {
		return i + 1, bytes.TrimSpace(data[:i]), nil
	}
	if atEOF && len(data) > 0 {
		return len(data), bytes.TrimSpace(data), nil
	}
	return 0, nil, nil
}

func main() {
	sc := bufio.NewScanner(strings.NewReader("a, bb ,ccc,, d"))
	sc.Split(commaSplit)
	for sc.Scan() {
		fmt.Printf("%q ", sc.Text())
	}
	fmt.Println(sc.Err())
	words := bufio.NewScanner(strings.NewReader("the quick\nbrown  fox\n"))
	words.Split(bufio.ScanWords)
	n := 0
	for words.Scan() {
		n++
	}
	fmt.Println("words:", n)
	runes := bufio.NewScanner(strings.NewReader("aé"))
	runes.Split(bufio.ScanRunes)
	for runes.Scan() {
		fmt.Print(runes.Text(), "|")
	}
	fmt.Println()
	long := bufio.NewScanner(strings.NewReader(strings.Repeat("x", 100) + "\nshort\n"))
	long.Buffer(make([]byte, 10), 20)
	for long.Scan() {
		fmt.Println(long.Text())
	}
	fmt.Println(long.Err())
	lines := bufio.NewScanner(strings.NewReader("l1\r\nl2\n\nl4"))
	for lines.Scan() {
		fmt.Printf("%q ", lines.Text())
	}
	fmt.Println()
	r := bufio.NewReader(strings.NewReader("head:rest of it\nline2"))
	h, _ := r.ReadString(':')
	pk, _ := r.Peek(4)
	l, isPrefix, _ := r.ReadLine()
	fmt.Printf("%q %q %q %v\n", h, pk, l, isPrefix)
	var out bytes.Buffer
	w := bufio.NewWriterSize(&out, 16)
	fmt.Fprint(w, "buffered")
	fmt.Println(out.Len(), w.Buffered())
	w.Flush()
	fmt.Println(out.String())
}
