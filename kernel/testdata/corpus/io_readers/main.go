package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"
)

type upper struct{ r io.Reader }

func (u upper) Read(p []byte) (int, error) {
	n, err := u.r.Read(p)
	copy(p, bytes.ToUpper(p[:n]))
	return n, err
}

func main() {
	var b bytes.Buffer
	n, _ := io.Copy(&b, io.LimitReader(strings.NewReader("hello world"), 5))
	fmt.Println(n, b.String())
	all, _ := io.ReadAll(upper{strings.NewReader("shout")})
	fmt.Println(string(all))
	mr := io.MultiReader(strings.NewReader("a"), strings.NewReader("b"))
	x, _ := io.ReadAll(mr)
	fmt.Println(string(x))
	pr, pw := io.Pipe()
	go func() {
		fmt.Fprint(pw, "through a pipe")
		pw.Close()
	}()
	p, _ := io.ReadAll(pr)
	fmt.Println(string(p))
}
