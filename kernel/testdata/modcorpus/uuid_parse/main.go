package main

import (
	"fmt"
	"sort"

	"github.com/google/uuid"
)

func main() {
	for _, s := range []string{
		"f47ac10b-58cc-0372-8567-0e02b2c3d479",
		"urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8",
		"{6ba7b811-9dad-11d1-80b4-00c04fd430c8}",
		"not-a-uuid",
		"f47ac10b58cc037285670e02b2c3d479",
	} {
		id, err := uuid.Parse(s)
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		fmt.Printf("%s version=%d bytes=%x\n", id, id.Version(), id[:4])
	}
	ids := []uuid.UUID{
		uuid.MustParse("00000000-0000-0000-0000-000000000003"),
		uuid.MustParse("00000000-0000-0000-0000-000000000001"),
		uuid.MustParse("00000000-0000-0000-0000-000000000002"),
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i].String() < ids[j].String() })
	fmt.Println(ids)
	b, _ := ids[0].MarshalText()
	fmt.Println(string(b), uuid.Validate("x") != nil)
}
