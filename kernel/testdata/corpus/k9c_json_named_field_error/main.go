package main

import (
	"encoding/json"
	"fmt"
)

type Status string

type Task struct {
	Title  string `json:"title"`
	Status Status `json:"status"`
}

func main() {
	var t Task
	err := json.Unmarshal([]byte(`{"title":"x","status":"open"}`), &t)
	fmt.Println(t.Title, t.Status, err)
	err = json.Unmarshal([]byte(`{"status":7}`), &t)
	fmt.Println(err)
}
