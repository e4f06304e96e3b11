package main

import (
	"fmt"

	"github.com/google/uuid"
)

func main() {
	for _, name := range []string{"orders", "customers", "2024-03-10|eu"} {
		u := uuid.NewMD5(uuid.NameSpaceOID, []byte(name))
		fmt.Println(name, u, u.Version(), u.Variant(), u.URN())
	}
	u := uuid.MustParse("{f47ac10b-58cc-4372-a567-0e02b2c3d479}")
	b, _ := u.MarshalBinary()
	fmt.Printf("%s %x %v %v\n", u, b[:4], u.Version(), uuid.Nil == uuid.UUID{})
	_, err := uuid.Parse("not-a-uuid")
	fmt.Println(err != nil, err)
}
