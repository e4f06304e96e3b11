// Method promotion through embedded structs and embedded pointers,
// shadowing of fields and methods, and an embedded pointer shared by two
// outer values.
package main

import "fmt"

type Base struct {
	ID    int
	calls int
}

func (b *Base) Touch()          { b.calls++ }
func (b Base) Describe() string { return fmt.Sprintf("base %d (%d calls)", b.ID, b.calls) }
func (b Base) Kind() string     { return "base" }

type Named struct {
	Name string
}

func (n Named) Kind() string { return "named:" + n.Name }

type Item struct {
	*Base
	Named
	Qty int
}

func (i Item) Kind() string { return "item/" + i.Named.Kind() + "/" + i.Base.Kind() }

type Wrapper struct {
	Item
	ID string
}

type Describer interface{ Describe() string }

func main() {
	shared := &Base{ID: 1}
	a := Item{Base: shared, Named: Named{"a"}, Qty: 2}
	b := Item{Base: shared, Named: Named{"b"}}
	a.Touch()
	b.Touch()
	b.Base.Touch()
	fmt.Println(a.Describe(), b.calls, shared.calls)
	fmt.Println(a.Kind(), b.Name, a.ID)
	w := Wrapper{Item: a, ID: "w1"}
	w.Touch()
	fmt.Println(w.ID, w.Item.ID, w.Base.ID, w.calls, w.Kind())
	var d Describer = w
	fmt.Println(d.Describe())
	d = &b
	shared.ID = 9
	fmt.Println(d.Describe())
	c := a
	c.Base = &Base{ID: 2}
	c.Touch()
	fmt.Println(a.Describe(), c.Describe())
	c.Named.Name = "c"
	fmt.Println(a.Name, c.Name, c.Kind())
	touch := w.Touch
	touch()
	touch()
	fmt.Println(shared.calls)
	var empty Item
	func() {
		defer func() { fmt.Println("recovered:", recover() != nil) }()
		empty.Touch()
	}()
}
