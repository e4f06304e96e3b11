// bufio over strings.Reader: a Scanner with its own split, a long line
// beyond the buffer, and a Reader's ReadString/ReadRune/Peek.
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
	sc := bufio.NewScanner(strings.NewReader("a, b,,c ,d"))
	sc.Split(commaSplit)
	var toks []string
	for sc.Scan() {
		toks = append(toks, sc.Text())
	}
	fmt.Printf("%q %v\n", toks, sc.Err())

	long := strings.Repeat("x", 100) + "\nshort\r\nlast"
	sc = bufio.NewScanner(strings.NewReader(long))
	sc.Buffer(make([]byte, 16), 64)
	for sc.Scan() {
		fmt.Println(len(sc.Text()))
	}
	fmt.Println("err:", sc.Err())
	sc = bufio.NewScanner(strings.NewReader(long))
	n := 0
	for sc.Scan() {
		n++
		fmt.Printf("%d %q\n", n, sc.Text()[:min(5, len(sc.Text()))])
	}

	sc = bufio.NewScanner(strings.NewReader("héllo wörld"))
	sc.Split(bufio.ScanRunes)
	count := 0
	for sc.Scan() {
		count++
	}
	fmt.Println(count)

	br := bufio.NewReaderSize(strings.NewReader("key=value\nnext line\né"), 16)
	p, _ := br.Peek(3)
	fmt.Printf("%q %d\n", p, br.Buffered())
	s, err := br.ReadString('\n')
	fmt.Printf("%q %v\n", s, err)
	b, _ := br.ReadByte()
	_ = br.UnreadByte()
	word, _ := br.ReadString(' ')
	fmt.Printf("%c %q\n", b, word)
	rest, err := br.ReadString('\n')
	fmt.Printf("%q %v\n", rest, err)
	r, size, err := br.ReadRune()
	fmt.Println(string(r), size, err)
	_, err = br.ReadByte()
	fmt.Println(err)

	var out bytes.Buffer
	bw := bufio.NewWriterSize(&out, 8)
	fmt.Fprintf(bw, "%s-%d", "abc", 12345)
	fmt.Println(out.Len(), bw.Buffered(), bw.Available())
	bw.Flush()
	fmt.Println(out.String())
}
