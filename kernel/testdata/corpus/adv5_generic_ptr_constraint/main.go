package main

import (
	"fmt"
	"strconv"
	"strings"
)

type Setter[T any] interface {
	*T
	Set(string) error
}

type Settings struct {
	key, val string
}

func (s *Settings) Set(v string) error {
	k, val, ok := strings.Cut(v, "=")
	if !ok {
		return fmt.Errorf("bad setting %q", v)
	}
	s.key, s.val = k, val
	return nil
}

type Port int

func (p *Port) Set(v string) error {
	n, err := strconv.Atoi(v)
	if err != nil {
		return err
	}
	*p = Port(n)
	return nil
}

func FromStrings[T any, PT Setter[T]](ss []string) ([]T, error) {
	out := make([]T, len(ss))
	for i, s := range ss {
		p := PT(&out[i])
		if err := p.Set(s); err != nil {
			return out[:i], err
		}
	}
	return out, nil
}

func main() {
	settings, err := FromStrings[Settings]([]string{"a=1", "b=2"})
	fmt.Println(len(settings), settings[1].key, settings[1].val, err)
	ports, err := FromStrings[Port]([]string{"80", "443", "x"})
	fmt.Println(ports, err)
	ok, err := FromStrings[Port]([]string{"8080"})
	fmt.Println(ok, err, int(ok[0])+1)
}
