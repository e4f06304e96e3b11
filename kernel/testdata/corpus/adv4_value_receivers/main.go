// Value receivers mutate a copy; pointer receivers mutate the original,
// including through slice elements and map values that are pointers.
package main

import "fmt"

type Counter struct {
	Name string
	N    int
}

func (c Counter) IncVal()            { c.N++ }
func (c *Counter) IncPtr()           { c.N++ }
func (c Counter) With(n int) Counter { c.N = n; return c }

type Bag struct {
	items []Counter
}

func (b Bag) Bump() {
	for i := range b.items {
		b.items[i].N += 10
	}
	b.items = append(b.items, Counter{"extra", 0})
}

func main() {
	c := Counter{Name: "a"}
	c.IncVal()
	c.IncPtr()
	c.IncPtr()
	fmt.Println(c)
	d := c.With(50)
	fmt.Println(c, d)

	cs := []Counter{{"x", 0}, {"y", 0}}
	cs[0].IncPtr()
	cs[1].IncVal()
	for _, v := range cs {
		v.IncPtr()
	}
	fmt.Println(cs)

	pm := map[string]*Counter{"p": {Name: "p"}}
	pm["p"].IncPtr()
	pm["p"].N += 5
	fmt.Println(*pm["p"])

	vm := map[string]Counter{"v": {Name: "v"}}
	tmp := vm["v"]
	tmp.IncPtr()
	fmt.Println(vm["v"], tmp)

	b := Bag{items: []Counter{{"i", 1}}}
	b.Bump()
	fmt.Println(len(b.items), b.items)

	arr := [2]Counter{{"q", 1}, {"r", 2}}
	arr[1].IncPtr()
	cp := arr
	cp[0].IncPtr()
	fmt.Println(arr, cp)
}
