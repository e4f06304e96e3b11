// A struct that embeds an interface gets its methods: s.Log(...) calls
// s.Logger.Log(...). yaegi failed such a call at run time ("invalid
// interface value {…}") while the explicit s.Logger.Log(...) worked; the
// kernel writes the embedded fields out.
package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

type Logger interface{ Log(string) }

type memLog struct{ lines []string }

func (m *memLog) Log(s string) { m.lines = append(m.lines, s) }

type prefixLog struct{ prefix string }

func (p prefixLog) Log(s string) { fmt.Println(p.prefix + s) }

type Service struct {
	Logger
	name string
}

func (s *Service) Start() {
	s.Log("starting " + s.name)
}

type Job struct {
	*Service
	id int
}

type countingReader struct {
	io.Reader
	reads int
}

func (c *countingReader) Read(p []byte) (int, error) {
	c.reads++
	return c.Reader.Read(p)
}

type byLen struct {
	sort.StringSlice
}

func main() {
	ml := &memLog{}
	s := Service{Logger: ml, name: "svc"}
	s.Log("promoted")
	s.Logger.Log("explicit")
	s.Start()
	ps := &s
	ps.Log("through a pointer")
	j := Job{Service: ps, id: 7}
	j.Log(fmt.Sprint("job ", j.id))
	fmt.Println(strings.Join(ml.lines, " | "))

	s2 := Service{Logger: prefixLog{"> "}, name: "two"}
	s2.Log("value logger")
	s2.Start()
	s2.Logger = prefixLog{">> "}
	s2.Log("swapped")

	cr := &countingReader{Reader: strings.NewReader("some input text")}
	b, err := io.ReadAll(cr)
	fmt.Println(string(b), err, cr.reads > 0)

	words := byLen{sort.StringSlice{"ccc", "a", "bb"}}
	words.Sort()
	fmt.Println(words.StringSlice, words.Len(), words.Search("bb"))
}
