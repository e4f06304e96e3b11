package main

import (
	"encoding/json"
	"fmt"

	"github.com/google/uuid"
)

func main() {
	id := uuid.MustParse("6ba7b810-9dad-11d1-80b4-00c04fd430c8")
	b, _ := json.Marshal(map[string]uuid.UUID{"id": id})
	fmt.Println(string(b))
	var back map[string]uuid.UUID
	_ = json.Unmarshal(b, &back)
	fmt.Println(back["id"] == id, back["id"].Version(), back["id"].Time() > 0)
	bin, _ := id.MarshalBinary()
	fmt.Printf("%d % x\n", len(bin), bin[:6])
	var n uuid.NullUUID
	fmt.Println(n.Valid)
	err := json.Unmarshal([]byte(`"`+id.String()+`"`), &n)
	fmt.Println(err, n.Valid, n.UUID)
}
