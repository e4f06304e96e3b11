package main

import (
	"crypto/md5"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"hash/fnv"
	"math/bits"
)

type BitSet []uint64

func (b *BitSet) Set(i int) {
	for len(*b) <= i/64 {
		*b = append(*b, 0)
	}
	(*b)[i/64] |= 1 << (uint(i) % 64)
}

func (b BitSet) Has(i int) bool { return i/64 < len(b) && b[i/64]&(1<<(uint(i)%64)) != 0 }

func (b BitSet) Count() int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}

func main() {
	var bs BitSet
	for _, i := range []int{1, 3, 64, 65, 200} {
		bs.Set(i)
	}
	fmt.Println(len(bs), bs.Count(), bs.Has(3), bs.Has(4), bs.Has(200), bs.Has(1000))
	fmt.Println(bits.LeadingZeros32(1), bits.TrailingZeros16(8), bits.Len(255), bits.Reverse8(1), bits.RotateLeft8(0x81, 1))
	hi, lo := bits.Mul64(1<<63, 4)
	sum, carry := bits.Add64(^uint64(0), 1, 0)
	fmt.Println(hi, lo, sum, carry)
	buf := make([]byte, 8)
	binary.BigEndian.PutUint32(buf, 0xdeadbeef)
	binary.LittleEndian.PutUint16(buf[4:], 0x1234)
	fmt.Println(buf, hex.EncodeToString(buf), binary.BigEndian.Uint16(buf[4:]))
	vb := binary.AppendUvarint(nil, 300)
	v, n := binary.Uvarint(vb)
	fmt.Println(vb, v, n)
	fmt.Printf("%x\n", sha256.Sum256([]byte("strata")))
	fmt.Printf("%x\n", md5.Sum([]byte("strata")))
	h := fnv.New32a()
	h.Write([]byte("hello"))
	fmt.Println(h.Sum32(), crc32.ChecksumIEEE([]byte("hello")))
	enc := base64.StdEncoding.EncodeToString([]byte("any carnal pleas"))
	url := base64.RawURLEncoding.EncodeToString([]byte{0xfb, 0xff, 0xfe})
	dec, err := base64.StdEncoding.DecodeString(enc)
	fmt.Println(enc, url, string(dec), err)
	_, err = base64.StdEncoding.DecodeString("!!!")
	fmt.Println(err)
	raw, err := hex.DecodeString("4a4B")
	fmt.Println(raw, err)
	_, err = hex.DecodeString("abc")
	fmt.Println(err)
	fmt.Println(hex.Dump([]byte("0123456789abcdefXYZ")))
}
