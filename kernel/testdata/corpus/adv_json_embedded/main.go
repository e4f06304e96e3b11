package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

type Base struct {
	ID      int       `json:"id"`
	Created time.Time `json:"created"`
}

type Money int64

func (m Money) MarshalJSON() ([]byte, error) {
	return []byte(fmt.Sprintf(`"$%d.%02d"`, m/100, m%100)), nil
}

func (m *Money) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	var d, c int64
	_, err := fmt.Sscanf(s, "$%d.%d", &d, &c)
	*m = Money(d*100 + c)
	return err
}

type Order struct {
	Base
	Item    string            `json:"item"`
	Price   Money             `json:"price"`
	Notes   string            `json:"notes,omitempty"`
	Tags    []string          `json:"tags,omitempty"`
	Extra   json.RawMessage   `json:"extra"`
	Attrs   map[string]string `json:"attrs,omitempty"`
	Skipped string            `json:"-"`
	Qty     int               `json:",string"`
}

func main() {
	o := Order{Base: Base{ID: 7, Created: time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)}, Item: "pen", Price: 1250,
		Extra: json.RawMessage(`{"gift":true}`), Skipped: "x", Qty: 3}
	b, err := json.Marshal(o)
	fmt.Println(string(b), err)
	var back Order
	err = json.Unmarshal(b, &back)
	fmt.Println(err, back.ID, back.Price, back.Created.Year(), string(back.Extra), back.Qty)
	ind, _ := json.MarshalIndent(map[string]any{"b": []int{1, 2}, "a": nil}, "", "  ")
	fmt.Println(string(ind))
	var anyv any
	json.Unmarshal([]byte(`{"n":1.5,"l":[true,"s",null],"o":{}}`), &anyv)
	m := anyv.(map[string]any)
	fmt.Printf("%T %T %v\n", m["n"], m["l"], m["l"])
	dec := json.NewDecoder(strings.NewReader(`{"id":1,"unknown":2}`))
	dec.DisallowUnknownFields()
	var bb Base
	fmt.Println(dec.Decode(&bb))
	var bad struct{ N int }
	err = json.Unmarshal([]byte(`{"N":"x"}`), &bad)
	fmt.Println(err)
}
