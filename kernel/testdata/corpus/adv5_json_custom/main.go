package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

type Level int

const (
	Debug Level = iota
	Info
	Warn
)

var levelNames = []string{"debug", "info", "warn"}

func (l Level) MarshalJSON() ([]byte, error) {
	return json.Marshal(levelNames[l])
}

func (l *Level) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	for i, n := range levelNames {
		if n == strings.ToLower(s) {
			*l = Level(i)
			return nil
		}
	}
	return fmt.Errorf("unknown level %q", s)
}

type Entry struct {
	At    time.Time      `json:"at"`
	Level Level          `json:"level"`
	Msg   string         `json:"msg"`
	Attrs map[string]any `json:"attrs,omitempty"`
}

func main() {
	in := `[
	 {"at":"2024-03-01T10:00:00Z","level":"INFO","msg":"start"},
	 {"at":"2024-03-01T10:00:05Z","level":"warn","msg":"slow","attrs":{"ms":1200,"path":"/x"}},
	 {"at":"2024-03-01T10:01:00Z","level":"debug","msg":"tick"}
	]`
	var entries []Entry
	if err := json.Unmarshal([]byte(in), &entries); err != nil {
		fmt.Println("error:", err)
		return
	}
	for _, e := range entries {
		fmt.Println(e.At.Format(time.Kitchen), int(e.Level), e.Msg, len(e.Attrs))
	}
	out, _ := json.Marshal(entries[1])
	fmt.Println(string(out))
	var bad []Entry
	err := json.Unmarshal([]byte(`[{"level":"fatal"}]`), &bad)
	fmt.Println("error:", err)
	b, _ := json.MarshalIndent(map[string]Level{"a": Warn, "b": Debug}, "", "  ")
	fmt.Println(string(b))
}
