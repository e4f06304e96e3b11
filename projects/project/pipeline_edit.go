package project

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// Adding and removing a block edits the pipeline file through yaml.v3's node
// tree, which keeps comments, key order and flow style, so the file stays the
// one a person wrote (re-indented at two spaces). This is file surgery, not
// pipeline semantics: the caller validates the result with Load like any save.

// AddBlock returns the pipeline file src with "- id: <id>" (and its upstream
// list) appended to blocks.
func AddBlock(src []byte, id string, upstream []string) ([]byte, error) {
	return InsertBlock(src, id, upstream, "")
}

// InsertBlock is AddBlock placing the block just before the block named
// before in the file's list ("" appends it). The file's order is the
// notebook's order wherever the upstream lists allow it (Pipeline.Order).
func InsertBlock(src []byte, id string, upstream []string, before string) ([]byte, error) {
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
	if err := insertBefore(blocks, b, before); err != nil {
		return nil, err
	}
	return encodeYAML(doc)
}

// MoveBlock returns src with the block id moved just before the block named
// before ("" moves it to the end of the list).
func MoveBlock(src []byte, id, before string) ([]byte, error) {
	doc, blocks, err := blockList(src)
	if err != nil {
		return nil, err
	}
	i := blockIndex(blocks, id)
	if i < 0 {
		return nil, fmt.Errorf("block %q is not in the pipeline file", id)
	}
	if before == id {
		return nil, fmt.Errorf("cannot move block %q before itself", id)
	}
	n := blocks.Content[i]
	blocks.Content = slices.Delete(blocks.Content, i, i+1)
	if err := insertBefore(blocks, n, before); err != nil {
		return nil, err
	}
	return encodeYAML(doc)
}

// insertBefore puts the block node n just before the block named before in
// the blocks list ("" appends it).
func insertBefore(blocks, n *yaml.Node, before string) error {
	at := len(blocks.Content)
	if before != "" {
		if at = blockIndex(blocks, before); at < 0 {
			return fmt.Errorf("block %q is not in the pipeline file", before)
		}
	}
	blocks.Content = slices.Insert(blocks.Content, at, n)
	return nil
}

// RenameBlock returns src with block old named new, in its id and in every
// upstream list that names it.
func RenameBlock(src []byte, old, new string) ([]byte, error) {
	doc, blocks, err := blockList(src)
	if err != nil {
		return nil, err
	}
	i := blockIndex(blocks, old)
	if i < 0 {
		return nil, fmt.Errorf("block %q is not in the pipeline file", old)
	}
	if blockIndex(blocks, new) >= 0 {
		return nil, fmt.Errorf("the pipeline file already has a block %q", new)
	}
	mappingValue(blocks.Content[i], "id").Value = new
	for _, b := range blocks.Content {
		up := mappingValue(b, "upstream")
		if up == nil || up.Kind != yaml.SequenceNode {
			continue
		}
		for _, u := range up.Content {
			if u.Kind == yaml.ScalarNode && u.Value == old {
				u.Value = new
			}
		}
	}
	return encodeYAML(doc)
}

// SetBlockNote returns src with the block's note (the markdown shown above
// its cell) set to note; an empty note removes the field.
func SetBlockNote(src []byte, id, note string) ([]byte, error) {
	doc, blocks, err := blockList(src)
	if err != nil {
		return nil, err
	}
	i := blockIndex(blocks, id)
	if i < 0 {
		return nil, fmt.Errorf("block %q is not in the pipeline file", id)
	}
	b := blocks.Content[i]
	for k := 0; k+1 < len(b.Content); k += 2 {
		if b.Content[k].Value == "note" {
			b.Content = slices.Delete(b.Content, k, k+2)
			break
		}
	}
	if note = strings.TrimRight(note, " \t\n"); note != "" {
		v := yamlStr(note)
		if strings.Contains(note, "\n") {
			v.Style = yaml.LiteralStyle
		}
		// After the id, so the file reads "- id: x" then what it is about.
		b.Content = slices.Insert(b.Content, min(2, len(b.Content)), yamlStr("note"), v)
	}
	return encodeYAML(doc)
}

// SetEndNote returns src with the pipeline's end_note (the markdown shown
// after the last block's cell) set to note; an empty note removes it. A new
// one goes at the end of the file, after the blocks it follows.
func SetEndNote(src []byte, note string) ([]byte, error) {
	doc, root, err := parseMapping(src)
	if err != nil {
		return nil, err
	}
	for k := 0; k+1 < len(root.Content); k += 2 {
		if root.Content[k].Value == "end_note" {
			root.Content = slices.Delete(root.Content, k, k+2)
			break
		}
	}
	if note = strings.TrimRight(note, " \t\n"); note != "" {
		v := yamlStr(note)
		if strings.Contains(note, "\n") {
			v.Style = yaml.LiteralStyle
		}
		root.Content = append(root.Content, yamlStr("end_note"), v)
	}
	return encodeYAML(doc)
}

// blockList parses src and returns its blocks sequence.
func blockList(src []byte) (*yaml.Node, *yaml.Node, error) {
	doc, root, err := parseMapping(src)
	if err != nil {
		return nil, nil, err
	}
	blocks := mappingValue(root, "blocks")
	if blocks == nil || blocks.Kind != yaml.SequenceNode {
		return nil, nil, errors.New("the pipeline file has no blocks list")
	}
	return doc, blocks, nil
}

// blockIndex is the position of block id in the blocks sequence, or -1.
func blockIndex(blocks *yaml.Node, id string) int {
	for i, b := range blocks.Content {
		if v := mappingValue(b, "id"); v != nil && v.Value == id {
			return i
		}
	}
	return -1
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

// NewPipelineFile is the text of a new pipeline file: a header comment, its
// description, partitions (interval and zone; start when set) and, when
// firstBlock is set, that one block.
func NewPipelineFile(description string, p PartitionConfig, firstBlock string) ([]byte, error) {
	root := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	if description != "" {
		root.Content = append(root.Content, yamlStr("description"), yamlStr(description))
	}
	parts := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	parts.Content = append(parts.Content, yamlStr("interval"), yamlStr(p.Interval))
	if p.Interval != "none" {
		parts.Content = append(parts.Content, yamlStr("timezone"), yamlStr(p.Timezone))
		if p.Start != "" {
			parts.Content = append(parts.Content, yamlStr("start"), &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: p.Start, Style: yaml.DoubleQuotedStyle})
		}
	}
	blocks := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	if firstBlock != "" {
		b := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		b.Content = append(b.Content, yamlStr("id"), yamlStr(firstBlock))
		blocks.Content = append(blocks.Content, b)
	} else {
		blocks.Style = yaml.FlowStyle
	}
	root.Content = append(root.Content, yamlStr("partitions"), parts, yamlStr("blocks"), blocks)
	root.HeadComment = "Created in the Strata notebook. Blocks run in DAG order; each lists its upstream blocks."
	return encodeYAML(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}})
}
