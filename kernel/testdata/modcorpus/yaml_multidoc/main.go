package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"gopkg.in/yaml.v3"
)

func main() {
	in := "kind: source\nname: a\n---\nkind: sink\nname: b\nretries: 3\n---\n[1, 2, 3]\n"
	dec := yaml.NewDecoder(bytes.NewBufferString(in))
	for {
		var doc any
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		fmt.Printf("%T %v\n", doc, doc)
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	_ = enc.Encode(map[string]any{"b": []int{1, 2}, "a": map[string]bool{"x": true}})
	_ = enc.Close()
	fmt.Print(buf.String())
}
