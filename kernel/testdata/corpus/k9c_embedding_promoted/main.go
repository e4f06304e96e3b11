package main

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

type Logger interface{ Log(string) }

type Base struct {
	ID    int
	lines []string
}

func (b *Base) Log(s string) { b.lines = append(b.lines, fmt.Sprintf("%d:%s", b.ID, s)) }
func (b Base) Count() int    { return len(b.lines) }

type Service struct {
	*Base
	Name string
}

type Cache struct {
	sync.Mutex
	m map[string]int
}

func (c *Cache) Inc(k string) {
	c.Lock()
	defer c.Unlock()
	c.m[k]++
}

type ReadWriter interface {
	Reader
	Writer
}
type Reader interface{ Read() string }
type Writer interface{ Write(string) }

type buf struct{ data []string }

func (b *buf) Read() string   { return strings.Join(b.data, ",") }
func (b *buf) Write(s string) { b.data = append(b.data, s) }

type byLen []string

func (s byLen) Len() int           { return len(s) }
func (s byLen) Less(i, j int) bool { return len(s[i]) < len(s[j]) }
func (s byLen) Swap(i, j int)      { s[i], s[j] = s[j], s[i] }

func logAll(l Logger, msgs ...string) {
	for _, m := range msgs {
		l.Log(m)
	}
}

func main() {
	s := Service{Base: &Base{ID: 7}, Name: "api"}
	logAll(s, "start", "ready")
	s.Log("direct")
	fmt.Println(s.Count(), s.lines, s.ID)
	s2 := s
	s2.Log("from copy")
	fmt.Println(s.Count(), s2.Count())

	c := &Cache{m: map[string]int{}}
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Inc([]string{"a", "b"}[i%2])
		}()
	}
	wg.Wait()
	fmt.Println(c.m)

	var rw ReadWriter = &buf{}
	rw.Write("x")
	rw.Write("y")
	var r Reader = rw
	fmt.Println(r.Read())

	words := byLen{"ccc", "a", "bb"}
	sort.Sort(words)
	fmt.Println(words)
	sort.Sort(sort.Reverse(words))
	fmt.Println(words, sort.IsSorted(words))
}
