package main

import (
	"log"
	"os"
)

func main() {
	log.SetFlags(0)
	log.SetOutput(os.Stdout)
	log.Println("plain")
	log.SetPrefix("app: ")
	log.Printf("value=%d", 7)
	l := log.New(os.Stdout, "[custom] ", 0)
	l.Println("from a logger")
	l.SetPrefix("[changed] ")
	l.Print("again")
	log.Print("flags:", log.Flags())
}
