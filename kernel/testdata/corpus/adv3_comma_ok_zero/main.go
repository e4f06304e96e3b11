// A comma-ok map index or type assertion that fails sets the value to its
// zero value. yaegi left the previous value: the word count below counted
// "c" from b's count, and `v, ok = m[missing]` kept v. The kernel writes
// the zero value on the same line.
package main

import "fmt"

type S struct{ A int }

func countWords(words []string) map[string]int {
	counts := map[string]int{}
	for _, w := range words {
		c, ok := counts[w]
		if !ok {
			fmt.Print("new:", w, " ")
		}
		counts[w] = c + 1
	}
	fmt.Println()
	return counts
}

func main() {
	fmt.Println(countWords([]string{"a", "b", "a", "c", "b", "a"}))
	var item any
	for i, v := range []any{1, "s", 2, "t"} {
		item = v
		n, ok := item.(int)
		fmt.Print(i, ":", n, ok, " ")
	}
	fmt.Println()
	stock := map[string]int{"apple": 3}
	for _, item := range []string{"apple", "pear", "apple"} {
		if n, ok := stock[item]; !ok {
			fmt.Println(item, "missing, have", n)
		} else {
			fmt.Println(item, n)
		}
	}
	last := map[string]int{}
	for i, w := range []string{"x", "y", "x"} {
		prev, _ := last[w]
		fmt.Print(w, " prev=", prev, " ")
		last[w] = i + 1
	}
	fmt.Println()

	m := map[string]int{"a": 1}
	v, ok := m["a"]
	v, ok = m["zz"]
	fmt.Println(v, ok)
	v = 7
	v, _ = m["zz"]
	fmt.Println(v)
	v = 8
	if w, ok := m["q"]; ok {
		fmt.Println("found", w)
	} else {
		fmt.Println("missing")
	}
	ms := map[int]S{1: {5}}
	sv := ms[1]
	sv, ok = ms[2]
	fmt.Println(sv, ok)
	var x any = 3.5
	n := 9
	n, ok = x.(int)
	fmt.Println(n, ok)
	str := "prev"
	str, ok = x.(string)
	fmt.Printf("%q %v\n", str, ok)
	type T struct{ val int }
	t := T{val: 4}
	t.val, ok = m["nope"]
	fmt.Println(t.val, ok)
	arr := []int{6}
	arr[0], ok = m["nope"]
	fmt.Println(arr, ok)
	ptr := new(int)
	*ptr = 3
	*ptr, ok = m["nope"]
	fmt.Println(*ptr)
	mp := map[string][]int{"k": {1}}
	sl := []int{9, 9}
	sl, ok = mp["none"]
	fmt.Println(sl == nil, ok)
	var iv any = 1
	ma := map[string]any{}
	iv, ok = ma["x"]
	fmt.Println(iv, ok)
	for _, k := range []string{"a", "b"} {
		v, ok = m[k]
		fmt.Print(k, v, ok, " ")
	}
	fmt.Println()
}
