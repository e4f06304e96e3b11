package main

import (
	"fmt"
	"log"
	"os"
)

func main() {
	log.SetFlags(0)
	log.SetOutput(os.Stdout)
	defer fmt.Println("deferred: not printed")
	log.Println("working")
	log.Fatalf("fatal: %s", "stop")
}
