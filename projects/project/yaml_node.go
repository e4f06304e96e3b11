package project

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// decoder reads one YAML file through yaml.v3 nodes rather than struct tags,
// so that every value keeps its line and column and every problem, including
// unknown fields and wrong types, is collected instead of stopping the load.
type decoder struct {
	file  string // slash-separated, relative to the project folder
	probs Problems
}

// entry is one field of a mapping as written: its key and its value.
type entry struct {
	key, val *yaml.Node
}

// addf records a problem at node n (the whole file when n is nil).
func (d *decoder) addf(n *yaml.Node, field, format string, args ...any) {
	p := Problem{File: d.file, Field: field, Message: fmt.Sprintf(format, args...)}
	if n != nil {
		p.Line, p.Column = n.Line, n.Column
	}
	d.probs = append(d.probs, p)
}

var yamlLineErr = regexp.MustCompile(`^yaml: (?:line (\d+): )?(.*)$`)

// yamlParserErrors are the messages of yaml.v3's parser stage. For them the
// library prints a 0-based line (go-yaml/yaml issue 205 and friends), while
// scanner messages get a 1-based one; syntaxError corrects the former.
var yamlParserErrors = []string{
	"did not find expected <stream-start>", "did not find expected <document start>",
	"found duplicate %YAML directive", "found incompatible YAML document", "found duplicate %TAG directive",
	"found undefined tag handle", "did not find expected node content", "did not find expected '-' indicator",
	"did not find expected key", "did not find expected ',' or ']'", "did not find expected ',' or '}'",
}

// parse reads the single YAML document in data and returns its root node,
// or nil when the file is empty or does not parse (the problem is recorded).
func (d *decoder) parse(data []byte) *yaml.Node {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if !errors.Is(err, io.EOF) {
			d.syntaxError(err, data)
		}
		return nil
	}
	var extra yaml.Node
	switch err := dec.Decode(&extra); {
	case err == nil:
		d.addf(&extra, "", "a second YAML document (after ---): a file holds one document")
	case !errors.Is(err, io.EOF):
		d.syntaxError(err, data)
	}
	if len(doc.Content) == 0 {
		return nil
	}
	root := resolve(doc.Content[0])
	if root.ShortTag() == "!!null" {
		return nil
	}
	return root
}

// syntaxError records a yaml.v3 error with the best line it can recover.
// The library omits the line when it is the first one, and leaves it out of
// reader errors (bad bytes), whose line this finds in data itself.
func (d *decoder) syntaxError(err error, data []byte) {
	m := yamlLineErr.FindStringSubmatch(err.Error())
	if m == nil {
		d.addf(nil, "", "YAML syntax error: %s", err)
		return
	}
	line, msg := 1, m[2]
	switch {
	case m[1] != "":
		line, _ = strconv.Atoi(m[1])
		if slices.Contains(yamlParserErrors, msg) {
			line++
		}
	case strings.Contains(msg, "UTF-8") || strings.Contains(msg, "control characters") || strings.Contains(msg, "Unicode"):
		line = badByteLine(data)
	case strings.Contains(msg, "anchor") || strings.Contains(msg, "alias"):
		line = 0
	}
	d.probs = append(d.probs, Problem{File: d.file, Line: line, Message: "YAML syntax error: " + msg})
}

// badByteLine returns the line of the first byte YAML refuses: invalid
// UTF-8 or a control character other than tab, newline and carriage return.
func badByteLine(data []byte) int {
	line := 1
	for len(data) > 0 {
		r, size := utf8.DecodeRune(data)
		if r == utf8.RuneError && size <= 1 || r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f {
			return line
		}
		if r == '\n' {
			line++
		}
		data = data[size:]
	}
	return 0
}

// resolve follows aliases (*name) to the node they refer to.
func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// describe names what a node holds, for "want X, got Y" messages.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	}
	switch n.ShortTag() {
	case "!!null":
		return "nothing"
	case "!!int", "!!float":
		return "the number " + n.Value
	case "!!bool":
		return n.Value
	}
	return strconv.Quote(n.Value)
}

// join builds a field path: join("blocks[2]", "upstream") = "blocks[2].upstream".
func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// index builds a list element path: index("blocks", 2) = "blocks[2]".
func index(path string, i int) string {
	return fmt.Sprintf("%s[%d]", path, i)
}

// fields reads the mapping n, reporting unknown and repeated keys, and returns
// its known fields by key. Fields left empty (`upstream:` with no value) count
// as not written. ok is false when n is not a mapping at all.
func (d *decoder) fields(n *yaml.Node, path, what string, known []string) (map[string]entry, bool) {
	n = resolve(n)
	if n.Kind != yaml.MappingNode {
		d.addf(n, path, "want %s with fields %s, got %s", what, quoteList(known), describe(n))
		return nil, false
	}
	out := make(map[string]entry)
	seen := make(map[string]*yaml.Node)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := resolve(n.Content[i]), resolve(n.Content[i+1])
		name := k.Value
		if k.Kind != yaml.ScalarNode {
			d.addf(k, path, "want a field name, got %s", describe(k))
			continue
		}
		if name == "<<" {
			d.addf(k, join(path, name), "YAML merge keys (<<) are not supported: write the fields out")
			continue
		}
		if first, dup := seen[name]; dup {
			d.addf(k, join(path, name), "field %q is written twice (first at line %d)", name, first.Line)
			continue
		}
		seen[name] = k
		if !slices.Contains(known, name) {
			hint := didYouMean(name, known)
			if hint == "" {
				hint = " (fields here: " + quoteList(known) + ")"
			}
			d.addf(k, join(path, name), "unknown field %q%s", name, hint)
			continue
		}
		if v.ShortTag() == "!!null" {
			continue
		}
		out[name] = entry{key: k, val: v}
	}
	return out, true
}

// str reads a scalar as text. Numbers and booleans are accepted as their
// spelling: `name: 2024` is the name "2024".
func (d *decoder) str(e entry, path string) (string, bool) {
	if e.val.Kind != yaml.ScalarNode {
		d.addf(e.val, path, "want a string, got %s", describe(e.val))
		return "", false
	}
	return e.val.Value, true
}

// integer reads a whole number.
func (d *decoder) integer(e entry, path string) (int, bool) {
	var v int
	if e.val.Kind != yaml.ScalarNode || e.val.ShortTag() != "!!int" || e.val.Decode(&v) != nil {
		d.addf(e.val, path, "want a whole number, got %s", describe(e.val))
		return 0, false
	}
	return v, true
}

// boolean reads true or false. YAML 1.2 has no yes/no, so those are errors
// rather than strings silently taken as false.
func (d *decoder) boolean(e entry, path string) (bool, bool) {
	var v bool
	if e.val.Kind != yaml.ScalarNode || e.val.ShortTag() != "!!bool" || e.val.Decode(&v) != nil {
		d.addf(e.val, path, "want true or false, got %s", describe(e.val))
		return false, false
	}
	return v, true
}

// duration reads a Go duration such as "30s" or "1h30m". Zero and negative
// durations are refused unless allowZero, which permits zero.
func (d *decoder) duration(e entry, path string, allowZero bool) (time.Duration, bool) {
	s, ok := d.str(e, path)
	if !ok {
		return 0, false
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		d.addf(e.val, path, "bad duration %q: want a number with a unit, such as 30s, 5m or 1h30m", s)
		return 0, false
	}
	if v < 0 || (v == 0 && !allowZero) {
		d.addf(e.val, path, "duration %s must be positive", s)
		return 0, false
	}
	return v, true
}

// strList reads a list of scalars and returns them with their nodes, so that
// later checks can point at one element.
func (d *decoder) strList(e entry, path string) ([]string, []*yaml.Node, bool) {
	if e.val.Kind != yaml.SequenceNode {
		d.addf(e.val, path, "want a list such as [a, b], got %s", describe(e.val))
		return nil, nil, false
	}
	var vals []string
	var nodes []*yaml.Node
	ok := true
	for i, item := range e.val.Content {
		item = resolve(item)
		if item.Kind != yaml.ScalarNode || item.ShortTag() == "!!null" {
			d.addf(item, index(path, i), "want a name, got %s", describe(item))
			ok = false
			continue
		}
		vals = append(vals, item.Value)
		nodes = append(nodes, item)
	}
	return vals, nodes, ok
}

// strMap reads a mapping of names to scalar values (variables).
func (d *decoder) strMap(e entry, path string) map[string]string {
	n := e.val
	if n.Kind != yaml.MappingNode {
		d.addf(n, path, "want a mapping of names to values, got %s", describe(n))
		return nil
	}
	out := make(map[string]string)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := resolve(n.Content[i]), resolve(n.Content[i+1])
		if k.Kind != yaml.ScalarNode || k.Value == "" {
			d.addf(k, path, "want a variable name, got %s", describe(k))
			continue
		}
		if _, dup := out[k.Value]; dup {
			d.addf(k, join(path, k.Value), "variable %q is written twice", k.Value)
			continue
		}
		if v.Kind != yaml.ScalarNode {
			d.addf(v, join(path, k.Value), "want a text, number or boolean value, got %s", describe(v))
			continue
		}
		if v.ShortTag() == "!!null" {
			out[k.Value] = ""
			continue
		}
		out[k.Value] = v.Value
	}
	return out
}
