package project

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	"gopkg.in/yaml.v3"
)

// TriggerForm is what the trigger form edits: one element of `triggers:`.
// The pipeline file stays the source of truth; SetTrigger writes the form
// into it as file surgery (comments, key order and the fields the form does
// not own are kept), and the caller validates the result with CheckText.
type TriggerForm struct {
	ID       string `json:"id"`
	Kind     string `json:"kind"`     // schedule, event or api
	Cron     string `json:"cron"`     // schedule
	Timezone string `json:"timezone"` // schedule; "" leaves it to the pipeline's zone
	Product  string `json:"product"`  // event
	// Changes is an event's: new-key fires on keys added to the product
	// (a dynamic dimension's key set); "" or new-version on new versions.
	Changes string `json:"changes"`
	Run     string `json:"run"`      // "" leaves the default for the kind
	CatchUp int    `json:"catch_up"` // schedule; 0 leaves the default
}

// SetTrigger returns src with the trigger named old replaced by f (its
// position and the comments on it kept), or f appended when old is "".
// It refuses an old that is not in the file and an unknown kind; anything
// else (a bad cron, an unknown product) is for the loader to report.
func SetTrigger(src []byte, old string, f TriggerForm) ([]byte, error) {
	if f.Kind != TriggerSchedule && f.Kind != TriggerEvent && f.Kind != TriggerAPI {
		return nil, fmt.Errorf("kind %q: want schedule, event or api", f.Kind)
	}
	doc, root, err := parseMapping(src)
	if err != nil {
		return nil, err
	}
	list := mappingValue(root, "triggers")
	if list == nil {
		root.Content = append(root.Content, yamlStr("triggers"), &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"})
		list = root.Content[len(root.Content)-1]
	}
	if list.Kind == yaml.ScalarNode && list.Tag == "!!null" {
		*list = yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	}
	if list.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("line %d: triggers is not a list", list.Line)
	}
	list.Style &^= yaml.FlowStyle
	var t *yaml.Node
	if old != "" {
		i := triggerIndex(list, old)
		if i < 0 {
			return nil, fmt.Errorf("trigger %q is not in the pipeline file", old)
		}
		t = list.Content[i]
		if t.Kind != yaml.MappingNode {
			return nil, fmt.Errorf("line %d: trigger %q is not a mapping", t.Line, old)
		}
	} else {
		t = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		list.Content = append(list.Content, t)
	}
	t.Style &^= yaml.FlowStyle
	setKey(t, "id", yamlStr(f.ID))
	for _, k := range []string{"schedule", "when", "api"} {
		if k != kindKey(f.Kind) {
			deleteKey(t, k)
		}
	}
	switch f.Kind {
	case TriggerSchedule:
		s := existingMapping(t, "schedule")
		setKey(s, "cron", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: f.Cron, Style: yaml.DoubleQuotedStyle})
		if f.Timezone != "" {
			setKey(s, "timezone", yamlStr(f.Timezone))
		} else {
			deleteKey(s, "timezone")
		}
		setKey(t, "schedule", s)
	case TriggerEvent:
		w := existingMapping(t, "when")
		setKey(w, "product", yamlStr(f.Product))
		if f.Changes == ChangesNewKey {
			setKey(w, "changes", yamlStr(f.Changes))
		} else {
			deleteKey(w, "changes") // new-version is the default
		}
		setKey(t, "when", w)
	case TriggerAPI:
		setKey(t, "api", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
	}
	if f.Run != "" {
		setKey(t, "run", yamlStr(f.Run))
	} else {
		deleteKey(t, "run")
	}
	if f.Kind == TriggerSchedule && f.CatchUp > 0 {
		c := existingMapping(t, "catch_up")
		setKey(c, "max", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(f.CatchUp)})
		setKey(t, "catch_up", c)
	} else {
		deleteKey(t, "catch_up")
	}
	return encodeYAML(doc)
}

// RemoveTrigger returns src without the trigger named id; the `triggers:`
// key goes when its list is left empty.
func RemoveTrigger(src []byte, id string) ([]byte, error) {
	doc, root, err := parseMapping(src)
	if err != nil {
		return nil, err
	}
	list := mappingValue(root, "triggers")
	if list == nil || list.Kind != yaml.SequenceNode {
		return nil, errors.New("the pipeline file has no triggers list")
	}
	i := triggerIndex(list, id)
	if i < 0 {
		return nil, fmt.Errorf("trigger %q is not in the pipeline file", id)
	}
	list.Content = slices.Delete(list.Content, i, i+1)
	if len(list.Content) == 0 {
		deleteKey(root, "triggers")
	}
	return encodeYAML(doc)
}

// TriggerIndex is the position of trigger id in the file's `triggers:` list
// (-1 when absent): the N of the loader's "triggers[N]" field paths.
func TriggerIndex(src []byte, id string) int {
	_, root, err := parseMapping(src)
	if err != nil {
		return -1
	}
	list := mappingValue(root, "triggers")
	if list == nil || list.Kind != yaml.SequenceNode {
		return -1
	}
	return triggerIndex(list, id)
}

func triggerIndex(list *yaml.Node, id string) int {
	for i, t := range list.Content {
		if v := mappingValue(t, "id"); v != nil && v.Value == id {
			return i
		}
	}
	return -1
}

func kindKey(kind string) string {
	switch kind {
	case TriggerSchedule:
		return "schedule"
	case TriggerEvent:
		return "when"
	}
	return "api"
}

// existingMapping is m's mapping under key (kept, with its comments and other
// keys), or a new one.
func existingMapping(m *yaml.Node, key string) *yaml.Node {
	if v := mappingValue(m, key); v != nil && v.Kind == yaml.MappingNode {
		v.Style &^= yaml.FlowStyle
		return v
	}
	return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
}

// setKey sets m[key] = v in place, or appends the pair.
func setKey(m *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			old := m.Content[i+1]
			v.LineComment, v.HeadComment, v.FootComment = old.LineComment, old.HeadComment, old.FootComment
			m.Content[i+1] = v
			return
		}
	}
	m.Content = append(m.Content, yamlStr(key), v)
}

func deleteKey(m *yaml.Node, key string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content = slices.Delete(m.Content, i, i+2)
			return
		}
	}
}
