// encoding/json with the tags a data engineer uses: omitempty, string,
// "-", renamed fields, RawMessage, pointers, maps and UseNumber.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

type Event struct {
	ID       int64             `json:"id,string"`
	Kind     string            `json:"kind"`
	Note     string            `json:"note,omitempty"`
	Count    int               `json:"count,omitempty"`
	Skip     string            `json:"-"`
	Dash     string            `json:"-,"`
	Parent   *Event            `json:"parent,omitempty"`
	Labels   map[string]string `json:"labels,omitempty"`
	Payload  json.RawMessage   `json:"payload"`
	Ratio    float64           `json:"ratio"`
	Enabled  bool              `json:"enabled,string"`
	Raw      []byte            `json:"raw,omitempty"`
	Untagged int
}

func main() {
	e := Event{ID: 9007199254740993, Kind: "click", Skip: "hidden", Dash: "d", Payload: json.RawMessage(`{"x":[1,2]}`), Ratio: 0.1, Enabled: true, Raw: []byte("hi"), Labels: map[string]string{"b": "2", "a": "<1>"}}
	e.Parent = &Event{ID: 1, Kind: "root", Payload: json.RawMessage(`null`)}
	out, err := json.Marshal(e)
	fmt.Println(string(out), err)

	var back Event
	err = json.Unmarshal(out, &back)
	fmt.Println(err, back.ID, back.Kind, back.Parent.Kind, string(back.Payload), back.Enabled, string(back.Raw), back.Labels["a"], back.Skip == "")

	var generic map[string]any
	_ = json.Unmarshal([]byte(`{"n": 12345678901234567890, "f": 1.5, "l": [1, "a", null, true], "o": {"k": 1}}`), &generic)
	fmt.Printf("%v %T %T %T\n", generic["n"], generic["f"], generic["l"], generic["o"])
	fmt.Println(generic)

	dec := json.NewDecoder(strings.NewReader(`{"n": 12345678901234567890} {"n": 2}`))
	dec.UseNumber()
	for dec.More() {
		var v map[string]any
		if err := dec.Decode(&v); err != nil {
			fmt.Println("err", err)
			break
		}
		num := v["n"].(json.Number)
		i, ierr := num.Int64()
		fmt.Println(num.String(), i, ierr != nil)
	}

	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(map[string]any{"html": "<b>&</b>", "list": []int{1, 2}, "empty": []string{}, "nil": nil})
	fmt.Print(buf.String())

	ints, _ := json.Marshal(map[int]string{10: "a", 2: "b", -1: "c"})
	fmt.Println(string(ints))
	var pretty bytes.Buffer
	_ = json.Indent(&pretty, []byte(`{"a":[1,{"b":2}],"c":{}}`), ">", "\t")
	fmt.Println(pretty.String())
	var compact bytes.Buffer
	_ = json.Compact(&compact, []byte("{ \"a\" : [ 1 , 2 ] }"))
	fmt.Println(compact.String(), json.Valid([]byte(`{"a":}`)))

	var bad struct{ N int }
	err = json.Unmarshal([]byte(`{"N": "x"}`), &bad)
	fmt.Println(err)
	err = json.Unmarshal([]byte(`{"N": 1,}`), &bad)
	fmt.Println(err)
}
