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
	mw := io.MultiWriter(&sb, upperWriter{&sb})
	io.WriteString(mw, "ab ")
	fmt.Println(sb.String())
}
