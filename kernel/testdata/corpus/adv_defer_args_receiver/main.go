package main

import "fmt"

type Logger struct{ prefix string }

func (l Logger) Log(msg string, n int) { fmt.Println(l.prefix, msg, n) }
func (l *Logger) PLog(msg string)      { fmt.Println(l.prefix, msg) }

// A deferred call with arguments evaluates its receiver and its arguments at
// the defer statement, not when the function returns.
func run() {
	l := Logger{prefix: "[first]"}
	n := 1
	defer l.Log("deferred with", n)
	p := &Logger{prefix: "[p1]"}
	defer p.PLog("pointer deferred")
	l.prefix = "[changed]"
	n = 2
	p = &Logger{prefix: "[p2]"}
	l.Log("direct with", n)
	p.PLog("pointer direct")
}

func main() { run() }
