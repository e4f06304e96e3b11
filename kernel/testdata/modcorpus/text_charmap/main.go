package main

import (
	"fmt"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
)

func main() {
	enc, err := charmap.ISO8859_1.NewEncoder().String("café naïve")
	fmt.Printf("%q %v\n", enc, err)
	dec, _ := charmap.ISO8859_1.NewDecoder().String(enc)
	fmt.Println(dec)
	win, _ := charmap.Windows1252.NewDecoder().Bytes([]byte{0x80, 0x93, 0x94})
	fmt.Println(string(win))
	_, err = charmap.ISO8859_1.NewEncoder().String("日本")
	fmt.Println(err)
	u16, _ := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().Bytes([]byte("hi"))
	fmt.Printf("% x\n", u16)
}
