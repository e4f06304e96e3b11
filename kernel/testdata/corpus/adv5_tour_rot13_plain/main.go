package main

import (
	"fmt"
	"io"
	"os"
	"strings"
)

type rot13Reader struct {
	r io.Reader
}

func (rr rot13Reader) Read(b []byte) (int, error) {
	n, err := rr.r.Read(b)
	for i := 0; i < n; i++ {
		c := b[i]
		switch {
		case c >= 'a' && c <= 'z':
			b[i] = 'a' + (c-'a'+13)%26
		case c >= 'A' && c <= 'Z':
			b[i] = 'A' + (c-'A'+13)%26
		}
	}
	return n, err
}

type MyReader struct{}

func (MyReader) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = 'A'
	}
	return len(b), nil
}

type upperWriter struct {
	w     io.Writer
	count int
}

func (u *upperWriter) Write(p []byte) (int, error) {
	u.count += len(p)
	return u.w.Write([]byte(strings.ToUpper(string(p))))
}

func main() {
	s := strings.NewReader("Lbh penpxrq gur pbqr!\n")
	r := rot13Reader{s}
	io.Copy(os.Stdout, &r)

	buf := make([]byte, 5)
	n, err := io.ReadFull(MyReader{}, buf)
	fmt.Println(n, err, string(buf))
	lim := io.LimitReader(MyReader{}, 7)
	all, _ := io.ReadAll(lim)
	fmt.Println(string(all))

	uw := &upperWriter{w: os.Stdout}
	fmt.Fprintf(uw, "written through %s\n", "a custom writer")
	io.WriteString(uw, "twice\n")
	fmt.Println(uw.count)
	var sb strings.Builder
	tee := io.TeeReader(rot13Reader{strings.NewReader("uryyb")}, &sb)
	out, _ := io.ReadAll(tee)
	fmt.Println(string(out), sb.String())
	mr := io.MultiReader(strings.NewReader("ab"), strings.NewReader("pq"))
	b2, _ := io.ReadAll(mr)
	fmt.Println(string(b2))
}
