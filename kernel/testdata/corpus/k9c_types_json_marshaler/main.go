package main

import (
	"encoding/json"
	"fmt"
	"strings"
)

type Level int

func (l Level) MarshalJSON() ([]byte, error) {
	return json.Marshal(strings.Repeat("*", int(l)))
}

func (l *Level) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*l = Level(len(s))
	return nil
}

type Item struct {
	Name  string
	Level Level
}

func main() {
	b, _ := json.Marshal(Item{"a", 3})
	fmt.Println(string(b))
	b, _ = json.Marshal(Level(2))
	fmt.Println(string(b))
	var it Item
	err := json.Unmarshal([]byte(`{"Name":"b","Level":"****"}`), &it)
	fmt.Println(it.Name, int(it.Level), err)
}
