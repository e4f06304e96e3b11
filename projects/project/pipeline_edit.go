package project

import (
	"bytes"
	"errors"
	"fmt"

	"gopkg.in/yaml.v3"
)

// Adding and removing a block edits the pipeline file through yaml.v3's node
// tree, which keeps comments, key order and flow style, so the file stays the
// one a person wrote (re-indented at two spaces). This is file surgery, not
// pipeline semantics: the caller validates the result with Load like any save.

// AddBlock returns the pipeline file src with "- id: <id>" (and its upstream
// list) appended to blocks.
func AddBlock(src []byte, id string, upstream []string) ([]byte, error) {
	doc, root, err := parseMapping(src)
	if err != nil {
		return nil, err
	}
	blocks := mappingValue(root, "blocks")
	if blocks == nil {
		root.Content = append(root.Content,
			&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "blocks"},
			&yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"})
		blocks = root.Content[len(root.Content)-1]
	}
	if blocks.Kind == yaml.ScalarNode && blocks.Tag == "!!null" {
		*blocks = yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	}
	if blocks.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("line %d: blocks is not a list", blocks.Line)
	}
	blocks.Style &^= yaml.FlowStyle // "blocks: []" becomes a block list
	b := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	b.Content = append(b.Content, yamlStr("id"), yamlStr(id))
	if len(upstream) > 0 {
		ups := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
		for _, u := range upstream {
			ups.Content = append(ups.Content, yamlStr(u))
		}
		b.Content = append(b.Content, yamlStr("upstream"), ups)
	}
	blocks.Content = append(blocks.Content, b)
	return encodeYAML(doc)
}

// RemoveBlock returns the pipeline file src without the block with that id.
func RemoveBlock(src []byte, id string) ([]byte, error) {
	doc, root, err := parseMapping(src)
	if err != nil {
		return nil, err
	}
	blocks := mappingValue(root, "blocks")
	if blocks == nil || blocks.Kind != yaml.SequenceNode {
		return nil, errors.New("the pipeline file has no blocks list")
	}
	for i, b := range blocks.Content {
		if v := mappingValue(b, "id"); v != nil && v.Value == id {
			blocks.Content = append(blocks.Content[:i], blocks.Content[i+1:]...)
			return encodeYAML(doc)
		}
	}
	return nil, fmt.Errorf("block %q is not in the pipeline file", id)
}

func parseMapping(src []byte) (*yaml.Node, *yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, nil, err
	}
	if doc.Kind == 0 { // empty file
		doc = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map"}}}
	}
	if len(doc.Content) == 0 {
		doc.Content = []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map"}}
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		*root = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	}
	if root.Kind != yaml.MappingNode {
		return nil, nil, errors.New("the pipeline file is not a mapping of settings")
	}
	return &doc, root, nil
}

func mappingValue(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func yamlStr(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v} }

func encodeYAML(doc *yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
