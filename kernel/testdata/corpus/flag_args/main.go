package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	verbose := flag.Bool("v", false, "verbose")
	n := flag.Int("n", 3, "count")
	flag.Parse()
	fmt.Println(*verbose, *n, flag.NArg(), flag.Args(), len(os.Args))
}
