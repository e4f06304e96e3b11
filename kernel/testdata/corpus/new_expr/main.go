package main

import "fmt"

type Options struct {
	Retries *int
	Name    *string
}

func main() {
	o := Options{Retries: new(3), Name: new("job")}
	fmt.Println(*o.Retries, *o.Name)
}
