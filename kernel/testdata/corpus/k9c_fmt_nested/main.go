package main

import (
	"errors"
	"fmt"
	"os"
)

type Address struct {
	City string
	Zip  *int
}

type User struct {
	Name    string
	Age     int
	Addr    Address
	Tags    []string
	Meta    map[string]int
	Friend  *User
	Scores  [2]float64
	Err     error
	Any     any
	private bool
}

func main() {
	u := User{Name: "ann", Age: 30, Addr: Address{City: "Oslo"}, Tags: []string{"a", "b"},
		Meta: map[string]int{"z": 1, "a": 2}, Scores: [2]float64{1.5, 2}, Err: errors.New("boom"), Any: 3}
	fmt.Printf("%v\n", u.Addr)
	fmt.Printf("%+v\n", u.Tags)
	fmt.Printf("%v %d %s\n", u.Meta, u.Scores, u.Tags)
	fmt.Printf("%q\n", u.Tags)
	fmt.Printf("%x %X\n", "hello", []byte{1, 171})
	fmt.Printf("%6.2f|%-8v|%8v|\n", u.Scores, u.Name, u.Age)
	fmt.Println(u.Err, u.Any, u.Friend == nil)
	fmt.Printf("%v %+v\n", u.Friend, u.Err)
	fmt.Printf("%T %T %T\n", u.Tags, u.Meta, u.Scores)
	fmt.Printf("%#v %#v %#v\n", u.Tags, u.Meta, u.Scores)
	fmt.Printf("%v|%s|%d\n", []any{1, "a", nil}, []string{}, []int(nil))
	fmt.Printf("%08b %o %#x %#o %x\n", 5, 64, 255, 8, -255)
	fmt.Printf("%3c|%-4q|%#q\n", 'z', 'y', "back`tick")
	fmt.Printf("%v %.2v %10.3v|\n", 3.14159, 3.14159, "abcdef")
	fmt.Printf("%*d|%-*d|\n", 5, 1, 4, 2)
	fmt.Printf("%!d %z\n", 1)
	fmt.Printf("%d %d\n", 1)
	fmt.Printf("%d\n", 1, 2)
	fmt.Fprintf(os.Stdout, "%[2]d %[1]d\n", 1, 2)
	fmt.Println(fmt.Sprint("a", 1, 2, "b", "c", 3.0, nil))
	fmt.Println(fmt.Sprintln("x", 1), fmt.Sprintf("%v", [][]int{{1}, {2, 3}}))
	var ip *int
	fmt.Println(ip == nil, fmt.Sprintf("%v", ip))
	fmt.Printf("%v %v\n", struct{}{}, [0]int{})
	fmt.Printf("%s\n", errors.Join(errors.New("e1"), errors.New("e2")))
	fmt.Printf("%v|%6.1f%%\n", true, 12.345)
}
