package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode"
)

func table(rows [][]string) string {
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			if len(c) > widths[i] {
				widths[i] = len(c)
			}
		}
	}
	var sb strings.Builder
	for ri, r := range rows {
		for i, c := range r {
			if i > 0 {
				sb.WriteString(" | ")
			}
			fmt.Fprintf(&sb, "%-*s", widths[i], c)
		}
		sb.WriteByte('\n')
		if ri == 0 {
			for i, w := range widths {
				if i > 0 {
					sb.WriteString("-+-")
				}
				sb.WriteString(strings.Repeat("-", w))
			}
			sb.WriteRune('\n')
		}
	}
	return sb.String()
}

func camel(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	up := false
	for _, r := range s {
		if r == '_' || r == '-' {
			up = true
			continue
		}
		if up {
			r = unicode.ToUpper(r)
			up = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

func main() {
	fmt.Print(table([][]string{{"name", "qty", "note"}, {"apple", "3", ""}, {"watermelon", "12", "big"}}))
	fmt.Println(camel("user_id"), camel("http-server_name"), camel("ünïcode_ok"))

	var buf bytes.Buffer
	buf.WriteString("line one\nline two\n")
	fmt.Fprintf(&buf, "line %d\n", 3)
	buf.Write([]byte("tail"))
	fmt.Println(buf.Len())
	first, err := buf.ReadString('\n')
	fmt.Printf("%q %v\n", first, err)
	next, _ := buf.ReadBytes('\n')
	fmt.Printf("%q remaining=%d\n", next, buf.Len())
	rest, _ := io.ReadAll(&buf)
	fmt.Printf("%q %d\n", rest, buf.Len())
	_, err = buf.ReadByte()
	fmt.Println(err == io.EOF)

	var b2 bytes.Buffer
	b2.WriteString("hello, world")
	b2.Truncate(5)
	b2.WriteByte('!')
	fmt.Println(b2.String(), bytes.HasPrefix(b2.Bytes(), []byte("he")))
	fields := bytes.Fields([]byte("  a bb  ccc "))
	fmt.Println(len(fields), string(bytes.Join(fields, []byte("+"))), string(bytes.ToUpper(fields[2])))
	r := strings.NewReader("abcdef")
	chunk := make([]byte, 4)
	for {
		n, err := r.Read(chunk)
		if n > 0 {
			fmt.Printf("[%s]", chunk[:n])
		}
		if err != nil {
			fmt.Println(" end:", err)
			break
		}
	}
}
