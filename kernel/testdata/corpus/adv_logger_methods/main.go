package main

import (
	"fmt"
	"log"
	"os"
)

func main() {
	l := log.New(os.Stdout, "[app] ", 0)
	fmt.Println(l.Prefix(), l.Flags())
	l.SetFlags(0)
	l.SetOutput(os.Stdout)
	l.Println("x")
	l.SetPrefix("[svc] ")
	l.Printf("after %s", "SetPrefix")
	log.SetOutput(os.Stdout)
	log.SetFlags(log.Lmsgprefix)
	log.SetPrefix("std> ")
	log.Default().SetPrefix("dflt> ")
	log.Print("std logger")
	fmt.Println(log.Prefix(), l.Prefix())
	w := l.Writer()
	fmt.Println(w != nil)
}
