package main

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"hash/crc32"
)

func main() {
	data := []byte("strata")
	sum := sha256.Sum256(data)
	fmt.Println(hex.EncodeToString(sum[:8]))
	enc := base64.StdEncoding.EncodeToString(data)
	dec, _ := base64.StdEncoding.DecodeString(enc)
	fmt.Println(enc, string(dec))
	fmt.Println(crc32.ChecksumIEEE(data))
	fmt.Println(base64.URLEncoding.EncodeToString([]byte{0xfb, 0xff}))
}
