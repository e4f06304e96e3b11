package main

import (
	"fmt"
	"log"
	"os"
)

// A block's own error types printed by fmt directly (not inside a slice or
// struct): Go prints what Error returns.

type E struct{}

func (E) Error() string { return "E!" }

type NotFound struct{ Key string }

func (e *NotFound) Error() string { return "not found: " + e.Key }

type Both struct{}

func (Both) Error() string  { return "as error" }
func (Both) String() string { return "as stringer" }

func main() {
	log.SetOutput(os.Stdout)
	log.SetFlags(0)
	fmt.Println(E{}, &E{}, fmt.Sprint(E{}), fmt.Sprintf("%v %s", E{}, E{}))
	fmt.Println(fmt.Errorf("w: %w", &E{}), fmt.Errorf("v: %v", E{}))
	nf := &NotFound{"k"}
	fmt.Println(nf, fmt.Errorf("lookup: %w", nf))
	fmt.Printf("%v|%s\n", nf, nf)
	fmt.Println(Both{}, fmt.Sprintf("%v", Both{}))
	log.Println("log:", E{}, nf)
	log.Printf("logf: %v", nf)
}
