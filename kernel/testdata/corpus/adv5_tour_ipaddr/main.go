package main

import (
	"fmt"
	"strings"
)

type IPAddr [4]byte

func (ip IPAddr) String() string {
	parts := make([]string, len(ip))
	for i, b := range ip {
		parts[i] = fmt.Sprint(b)
	}
	return strings.Join(parts, ".")
}

type Person struct {
	Name string
	Age  int
}

func (p Person) String() string {
	return fmt.Sprintf("%v (%v years)", p.Name, p.Age)
}

func main() {
	hosts := map[string]IPAddr{
		"loopback":  {127, 0, 0, 1},
		"googleDNS": {8, 8, 8, 8},
	}
	for _, name := range []string{"googleDNS", "loopback"} {
		ip := hosts[name]
		fmt.Printf("%v: %v\n", name, ip)
	}
	a := Person{"Arthur Dent", 42}
	z := Person{"Zaphod Beeblebrox", 9001}
	fmt.Println(a, z)
	fmt.Printf("%s | %v | %10.6s|\n", a, z, a)
	ip := hosts["loopback"]
	fmt.Println(ip.String() == "127.0.0.1", ip[0], len(ip))
	s := fmt.Sprintf("%v-%s", ip, IPAddr{10, 0, 0, 2})
	fmt.Println(s)
}
