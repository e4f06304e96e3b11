package main

import (
	"fmt"

	"github.com/google/uuid"
)

func main() {
	for _, name := range []string{"https://example.com/orders", "https://example.com/customers"} {
		id := uuid.NewSHA1(uuid.NameSpaceURL, []byte(name))
		fmt.Println(id, id.Version(), id.Variant())
	}
	md5 := uuid.NewMD5(uuid.NameSpaceDNS, []byte("strata.dev"))
	fmt.Println(md5.String(), md5.URN())
	fmt.Println(uuid.Nil, uuid.Nil == uuid.UUID{})
}
