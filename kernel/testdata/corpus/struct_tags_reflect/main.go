package main

import (
	"fmt"
	"reflect"
)

type Row struct {
	ID   int    `db:"id"`
	Name string `db:"name"`
}

func main() {
	t := reflect.TypeOf(Row{})
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		fmt.Println(f.Name, f.Tag.Get("db"), f.Type)
	}
	v := reflect.ValueOf(Row{7, "x"})
	fmt.Println(v.Field(0).Int(), v.Field(1).String())
}
