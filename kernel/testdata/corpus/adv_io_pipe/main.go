package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

type upperWriter struct{ w io.Writer }

func (u upperWriter) Write(p []byte) (int, error) {
	return u.w.Write([]byte(strings.ToUpper(string(p))))
}

func main() {
	pr, pw := io.Pipe()
	go func() {
		defer pw.Close()
		for i := 1; i <= 3; i++ {
			fmt.Fprintf(pw, "line %d\n", i)
		}
	}()
	sc := bufio.NewScanner(pr)
	for sc.Scan() {
		fmt.Println("got", sc.Text())
	}
	pr2, pw2 := io.Pipe()
	go func() {
		pw2.CloseWithError(fmt.Errorf("producer failed"))
	}()
	_, err := io.ReadAll(pr2)
	fmt.Println(err)
	var sb strings.Builder
	mw := io.MultiWriter(&sb, upperWriter{&sb})
	io.WriteString(mw, "ab ")
	fmt.Println(sb.String())
	mr := io.MultiReader(strings.NewReader("one "), strings.NewReader("two"))
	all, _ := io.ReadAll(io.LimitReader(mr, 6))
	fmt.Printf("%q\n", all)
	tr := io.TeeReader(strings.NewReader("tee"), upperWriter{&sb})
	io.ReadAll(tr)
	fmt.Println(sb.String())
	sr := io.NewSectionReader(strings.NewReader("0123456789"), 2, 5)
	p := make([]byte, 3)
	n, _ := sr.ReadAt(p, 1)
	fmt.Println(n, string(p), sr.Size())
	_, err = io.ReadFull(strings.NewReader("ab"), make([]byte, 4))
	fmt.Println(err, err == io.ErrUnexpectedEOF)
}
