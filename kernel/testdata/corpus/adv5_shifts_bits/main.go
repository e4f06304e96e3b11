package main

import (
	"fmt"
	"math/bits"
	"strconv"
)

type Perm uint8

const (
	Read Perm = 1 << iota
	Write
	Exec
)

func (p Perm) Has(q Perm) bool { return p&q == q }

func popcount(x uint64) int {
	n := 0
	for x != 0 {
		x &= x - 1
		n++
	}
	return n
}

func main() {
	var x uint64 = 1
	s := 70
	fmt.Println(x<<s, x<<63, uint32(1)<<31, int32(1)<<30)
	var y int64 = -256
	fmt.Println(y>>4, y>>63, uint64(y)>>60, y<<1)
	sh := uint(3)
	fmt.Println(1<<sh, 0xff>>sh, -1<<sh)
	var i8 int8 = -128
	fmt.Println(i8>>1, i8>>7, uint8(i8)>>7, i8<<1)

	p := Read | Exec
	fmt.Println(p.Has(Read), p.Has(Write), p.Has(Read|Exec), p&^Read, p|Write, p^Exec, int(p))
	fmt.Println(strconv.FormatUint(uint64(p), 2), fmt.Sprintf("%03b", uint8(p)))

	for _, v := range []uint64{0, 1, 255, 1 << 40, 0xdeadbeef} {
		fmt.Print(popcount(v) == bits.OnesCount64(v), bits.LeadingZeros64(v), bits.TrailingZeros64(v), bits.Len64(v), " | ")
	}
	fmt.Println()
	fmt.Println(bits.RotateLeft8(0b10010110, 3), bits.Reverse8(0b00000110), bits.ReverseBytes16(0x1234) == 0x3412)
	hi, lo := bits.Mul64(1<<63, 4)
	sum, carry := bits.Add64(^uint64(0), 1, 0)
	fmt.Println(hi, lo, sum, carry)
	mask := ^uint32(0) >> 4
	fmt.Printf("%#x %#x %d\n", mask, ^mask, ^0)
	var flags uint16
	for _, b := range []int{0, 3, 15} {
		flags |= 1 << b
	}
	fmt.Printf("%016b %d\n", flags, flags)
	flags &^= 1 << 3
	fmt.Println(flags, flags&(1<<15) != 0)
	n := 10
	fmt.Println(n<<2>>1, n&1 == 0, n|1, -n&0xf, ^n)
}
