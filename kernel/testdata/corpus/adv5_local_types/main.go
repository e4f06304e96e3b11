package main

import (
	"fmt"
	"sort"
	"strings"
)

func topWords(text string, n int) []string {
	type entry struct {
		word  string
		count int
	}
	counts := map[string]*entry{}
	var order []*entry
	for _, w := range strings.Fields(strings.ToLower(text)) {
		w = strings.Trim(w, ".,!?")
		e, ok := counts[w]
		if !ok {
			e = &entry{word: w}
			counts[w] = e
			order = append(order, e)
		}
		e.count++
	}
	sort.SliceStable(order, func(i, j int) bool { return order[i].count > order[j].count })
	var out []string
	for _, e := range order[:n] {
		out = append(out, fmt.Sprintf("%s:%d", e.word, e.count))
	}
	return out
}

func tree() {
	type node struct {
		val         int
		left, right *node
	}
	var insert func(n *node, v int) *node
	insert = func(n *node, v int) *node {
		if n == nil {
			return &node{val: v}
		}
		if v < n.val {
			n.left = insert(n.left, v)
		} else {
			n.right = insert(n.right, v)
		}
		return n
	}
	var root *node
	for _, v := range []int{5, 3, 8, 1, 4, 9} {
		root = insert(root, v)
	}
	var walk func(n *node, depth int)
	walk = func(n *node, depth int) {
		if n == nil {
			return
		}
		walk(n.left, depth+1)
		fmt.Print(n.val, "@", depth, " ")
		walk(n.right, depth+1)
	}
	walk(root, 0)
	fmt.Println()
}

func main() {
	fmt.Println(topWords("The cat saw the dog. The dog saw a cat! A bird?", 3))
	tree()
	type celsius float64
	type reading struct {
		city string
		temp celsius
	}
	rs := []reading{{"oslo", -3.5}, {"rome", 18}, {"cairo", 31.25}}
	var hottest reading
	for _, r := range rs {
		if r.temp > hottest.temp {
			hottest = r
		}
	}
	fmt.Printf("%s %.2f %v\n", hottest.city, float64(hottest.temp), hottest)
	{
		type reading int // shadows the outer local type
		var r reading = 7
		fmt.Println(r + 1)
	}
	fmt.Println(len(rs), rs[0].city)
}
