package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
)

func main() {
	fmt.Fprintln(os.Stdout, "to os.Stdout")
	os.Stdout.WriteString("WriteString\n")
	w := bufio.NewWriter(os.Stdout)
	fmt.Fprintf(w, "buffered %d\n", 1)
	w.Flush()
	io.WriteString(os.Stdout, "io.WriteString\n")
	fmt.Println("fmt.Println")
	fmt.Fprintln(os.Stderr, "this goes to stderr")
}
