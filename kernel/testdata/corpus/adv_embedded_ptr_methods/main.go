package main

import "fmt"

type Logger struct {
	prefix string
	lines  []string
}

func (l *Logger) Log(s string) { l.lines = append(l.lines, l.prefix+s) }
func (l Logger) Count() int    { return len(l.lines) }

type Service struct {
	*Logger
	name string
}

type Runner interface{ Log(string) }

func main() {
	s := Service{Logger: &Logger{prefix: "[svc] "}, name: "api"}
	logf := s.Log
	logf("start")
	logf("ready")
	var r Runner = s
	r.Log("via iface")
	count := s.Count
	s.Log("after bind")
	fmt.Println(count(), s.Count(), len(s.lines))
	for _, l := range s.lines {
		fmt.Println(l)
	}
	fns := []func(string){s.Log, s.Logger.Log}
	for i, f := range fns {
		f(fmt.Sprint("fn", i))
	}
	fmt.Println(s.lines[len(s.lines)-2:])
}
