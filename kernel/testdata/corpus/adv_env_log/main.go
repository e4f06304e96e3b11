package main

import (
	"fmt"
	"log"
	"os"
	"strings"
)

func main() {
	os.Setenv("STRATA_ADV_X", "42")
	fmt.Println(os.Getenv("STRATA_ADV_X"))
	v, ok := os.LookupEnv("STRATA_ADV_MISSING")
	fmt.Printf("%q %v\n", v, ok)
	os.Setenv("STRATA_ADV_EMPTY", "")
	v, ok = os.LookupEnv("STRATA_ADV_EMPTY")
	fmt.Printf("%q %v\n", v, ok)
	os.Unsetenv("STRATA_ADV_X")
	fmt.Printf("%q\n", os.Getenv("STRATA_ADV_X"))
	fmt.Println(os.ExpandEnv("home=${STRATA_ADV_EMPTY}|$STRATA_ADV_NOPE|"), os.Expand("$a-$b", func(k string) string { return strings.ToUpper(k) }))
	found := false
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "STRATA_ADV_EMPTY=") {
			found = true
		}
	}
	fmt.Println("in environ:", found)

	l := log.New(os.Stdout, "[app] ", 0)
	l.Println("started", 1)
	l.Printf("value=%d", 7)
	l.SetPrefix("[svc] ")
	l.Print("no newline needed")
	l2 := log.New(os.Stdout, "pre: ", log.Lmsgprefix)
	l2.Println("msgprefix")
	fmt.Println(l.Prefix(), l.Flags(), l2.Flags() == log.Lmsgprefix)
	log.SetOutput(os.Stdout)
	log.SetFlags(0)
	log.SetPrefix("std: ")
	log.Println("via std logger")
	var sb strings.Builder
	lb := log.New(&sb, "", log.Lshortfile)
	lb.Print("x")
	fmt.Println(strings.Contains(sb.String(), "main.go:"), strings.HasSuffix(sb.String(), ": x\n"))
	func() {
		defer func() { fmt.Println("recovered:", recover()) }()
		l.Panicf("bad %s", "thing")
	}()
}
