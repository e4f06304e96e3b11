package main

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

func walk(n *yaml.Node, depth int) {
	fmt.Printf("%s%d %q %s\n", strings.Repeat("  ", depth), n.Kind, n.Value, n.Tag)
	for _, c := range n.Content {
		walk(c, depth+1)
	}
}

func main() {
	var root yaml.Node
	if err := yaml.Unmarshal([]byte("a: 1\nb: [x, true]\n# c\nc: {d: 2.5}\n"), &root); err != nil {
		fmt.Println(err)
		return
	}
	walk(&root, 0)
	var m map[string]any
	_ = root.Decode(&m)
	fmt.Println(len(m), m["a"], m["b"])
}
