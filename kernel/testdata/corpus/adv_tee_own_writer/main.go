package main

import (
	"fmt"
	"io"
	"strings"
)

type upperWriter struct{ w io.Writer }

func (u upperWriter) Write(p []byte) (int, error) {
	return u.w.Write([]byte(strings.ToUpper(string(p))))
}

func main() {
	var sb strings.Builder
	tr := io.TeeReader(strings.NewReader("tee"), upperWriter{&sb})
	io.ReadAll(tr)
	fmt.Println(sb.String())
	fmt.Fprintf(upperWriter{&sb}, "x%d", 1)
	fmt.Println(sb.String())
}
