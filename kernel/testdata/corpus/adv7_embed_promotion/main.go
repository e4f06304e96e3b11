package main

import (
	"fmt"
	"strings"
)

type Logger struct {
	prefix string
	lines  []string
}

func (l *Logger) Logf(format string, args ...any) {
	l.lines = append(l.lines, l.prefix+fmt.Sprintf(format, args...))
}

type Base struct {
	ID   int
	Name string
}

func (b Base) Describe() string { return fmt.Sprintf("#%d %s", b.ID, b.Name) }
func (b *Base) Rename(n string) { b.Name = n }

type User struct {
	Base
	*Logger
	Name  string // shadows Base.Name
	Email string
}

type Admin struct {
	User
	Level int
}

func (a Admin) Describe() string { return "admin " + a.User.Describe() }

type Describer interface{ Describe() string }

func main() {
	lg := &Logger{prefix: "[u] "}
	u := User{Base: Base{ID: 1, Name: "base-ann"}, Logger: lg, Name: "ann", Email: "ann@x"}
	fmt.Println(u.Name, u.Base.Name, u.ID)
	u.Rename("renamed")
	fmt.Println(u.Name, u.Base.Name)
	u.Logf("hello %s", u.Name)
	u.Logf("id=%d", u.ID)

	a := Admin{User: u, Level: 3}
	a.Logf("level %d", a.Level)
	a.ID = 7
	fmt.Println(u.ID, a.ID, a.User.Base.ID)

	var ds []Describer
	ds = append(ds, u, a, &a, u.Base)
	for i, d := range ds {
		fmt.Println(i, d.Describe())
	}
	fmt.Println(strings.Join(lg.lines, "\n"))
	fmt.Println(len(a.lines), a.Logger == u.Logger)

	f := a.Describe
	g := a.User.Describe
	a.Level = 9
	a.ID = 8
	fmt.Println(f(), g())
}
