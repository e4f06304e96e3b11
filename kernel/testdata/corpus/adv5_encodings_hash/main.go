package main

import (
	"bytes"
	"compress/gzip"
	"crypto/md5"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"hash/fnv"
	"io"
)

type header struct {
	Magic   uint32
	Version uint16
	Flags   uint16
	Length  int64
}

func main() {
	data := []byte("The quick brown fox jumps over the lazy dog")
	fmt.Printf("sha256 %x\n", sha256.Sum256(data))
	fmt.Printf("md5    %x\n", md5.Sum(data))
	fmt.Println("crc32 ", crc32.ChecksumIEEE(data))
	h := fnv.New64a()
	h.Write(data)
	fmt.Println("fnv64a", h.Sum64())

	enc := base64.StdEncoding.EncodeToString(data[:10])
	url := base64.URLEncoding.EncodeToString([]byte{0xfb, 0xff, 0xfe})
	raw := base64.RawStdEncoding.EncodeToString([]byte("ab"))
	dec, err := base64.StdEncoding.DecodeString(enc)
	fmt.Println(enc, url, raw, string(dec), err)
	_, err = base64.StdEncoding.DecodeString("!!!")
	fmt.Println(err)
	hx := hex.EncodeToString([]byte("hi!"))
	back, _ := hex.DecodeString(hx)
	fmt.Println(hx, string(back), hex.Dump([]byte("0123456789abcdefXYZ"))[:30])

	var buf bytes.Buffer
	hd := header{Magic: 0xCAFEBABE, Version: 3, Flags: 1, Length: -42}
	binary.Write(&buf, binary.BigEndian, hd)
	fmt.Printf("% x\n", buf.Bytes())
	var got header
	binary.Read(bytes.NewReader(buf.Bytes()), binary.BigEndian, &got)
	fmt.Printf("%+v %t\n", got, got == hd)
	b := make([]byte, 8)
	binary.LittleEndian.PutUint32(b, 0x01020304)
	n := binary.PutUvarint(b[4:], 300)
	fmt.Println(b, n, binary.BigEndian.Uint16([]byte{1, 2}))
	v, k := binary.Uvarint(b[4:])
	fmt.Println(v, k)

	var zbuf bytes.Buffer
	zw := gzip.NewWriter(&zbuf)
	for i := 0; i < 50; i++ {
		zw.Write(data)
	}
	zw.Close()
	zr, err := gzip.NewReader(&zbuf)
	if err != nil {
		fmt.Println(err)
		return
	}
	plain, _ := io.ReadAll(zr)
	fmt.Println(len(plain), len(plain) == 50*len(data), zbuf.Len() < len(plain))
}
