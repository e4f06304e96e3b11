package main

import (
	"encoding/json"
	"fmt"
)

type Celsius float64
type Fahrenheit float64

func CToF(c Celsius) Fahrenheit { return Fahrenheit(c*9/5 + 32) }

type UserDTO struct {
	Name  string `json:"name"`
	Email string `json:"email"`
}

type User struct {
	Name  string
	Email string
}

type Point struct{ X, Y int }
type Vec Point

func main() {
	temps := []Celsius{-40, 0, 37, 100}
	for _, t := range temps {
		fmt.Printf("%.1f°C = %.1f°F\n", float64(t), float64(CToF(t)))
	}
	dto := UserDTO{"ann", "ann@example.com"}
	u := User(dto)
	fmt.Println(u.Name, u.Email)
	back := UserDTO(u)
	b, _ := json.Marshal(back)
	fmt.Println(string(b))
	b2, _ := json.Marshal(u)
	fmt.Println(string(b2))

	p := Point{1, 2}
	v := Vec(p)
	v.X = 10
	fmt.Println(p, v, Point(v) == Point{10, 2})

	anon := struct{ X, Y int }{3, 4}
	p = anon
	fmt.Println(p, anon == struct{ X, Y int }{3, 4})
	var pts []Point
	for _, a := range []struct{ X, Y int }{{1, 1}, {2, 2}} {
		pts = append(pts, Point(a))
	}
	fmt.Println(pts)

	type ID int64
	ids := []ID{3, 1, 2}
	var raw []int64
	for _, id := range ids {
		raw = append(raw, int64(id))
	}
	fmt.Println(raw, ID(raw[0])+ids[1])
	bs := []byte("héllo")
	rs := []rune("héllo")
	fmt.Println(len(bs), len(rs), string(bs[1:3]), string(rs[1]), string(rune(0x4e16)))
	type Strs []string
	ss := Strs([]string{"a", "b"})
	fmt.Println(len(ss), []string(ss))
	f, f2 := 1e100, 255
	fmt.Println(int64(f) == int64(f), uint8(f2)+uint8(1))
}
