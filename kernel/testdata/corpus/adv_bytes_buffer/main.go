package main

import (
	"bytes"
	"fmt"
	"io"
)

func main() {
	var buf bytes.Buffer
	buf.WriteString("hello ")
	buf.Write([]byte("world\n"))
	fmt.Fprintf(&buf, "n=%d\n", 42)
	fmt.Println(buf.Len())
	line, err := buf.ReadString('\n')
	fmt.Printf("%q %v\n", line, err)
	b, _ := buf.ReadByte()
	buf.UnreadByte()
	fmt.Println(string(b), buf.String())
	rest, _ := io.ReadAll(&buf)
	fmt.Printf("%q %d\n", rest, buf.Len())
	fmt.Println(bytes.Equal([]byte("a"), []byte("a")), bytes.Compare([]byte("a"), []byte("b")))
	fields := bytes.Fields([]byte(" x  y z "))
	fmt.Println(len(fields), string(bytes.Join(fields, []byte("-"))))
	up := bytes.ToUpper([]byte("mixed Case"))
	fmt.Println(string(up), bytes.HasPrefix(up, []byte("MIX")), bytes.Index(up, []byte("CASE")))
	nb := bytes.NewBufferString("abc")
	nb.Truncate(2)
	nb.WriteString("Z")
	fmt.Println(nb.String())
	var w bytes.Buffer
	n, _ := io.Copy(&w, bytes.NewReader([]byte("copied")))
	fmt.Println(n, w.String())
	fmt.Printf("%x % x %X\n", []byte("hi"), []byte{1, 171}, "ok")
}
