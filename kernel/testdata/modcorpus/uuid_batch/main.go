package main

import (
	"fmt"
	"strings"

	"github.com/google/uuid"
)

func main() {
	ns := uuid.NewSHA1(uuid.NameSpaceOID, []byte("strata.orders"))
	seen := map[uuid.UUID]string{}
	for i := 0; i < 5; i++ {
		key := fmt.Sprintf("order-%03d", i)
		id := uuid.NewSHA1(ns, []byte(key))
		seen[id] = key
		fmt.Println(key, strings.ToUpper(id.String()[:8]), id.ClockSequence())
	}
	fmt.Println(len(seen), ns.Time() != 0)
	var ids uuid.UUIDs = []uuid.UUID{ns, uuid.Nil}
	fmt.Println(ids.Strings())
}
