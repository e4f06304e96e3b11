package main

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

type User struct {
	Name string
	Age  int
}

func main() {
	xs := []int{1, 3, 5, 7, 9}
	i, found := slices.BinarySearch(xs, 5)
	fmt.Println(i, found)
	i, found = slices.BinarySearch(xs, 6)
	fmt.Println(i, found)
	fmt.Println(slices.Index(xs, 7), slices.Index(xs, 8), slices.Contains(xs, 9))
	ys := slices.Clone(xs)
	slices.Reverse(ys)
	fmt.Println(ys, xs)
	dup := []string{"a", "a", "b", "b", "b", "a"}
	fmt.Println(slices.Compact(dup))
	fmt.Println(slices.Max(xs), slices.Min(xs))
	users := []User{{"ann", 30}, {"bob", 25}, {"cat", 30}, {"dan", 25}}
	slices.SortStableFunc(users, func(a, b User) int { return cmp.Compare(a.Age, b.Age) })
	fmt.Println(users)
	j, ok := slices.BinarySearchFunc(users, 30, func(u User, age int) int { return cmp.Compare(u.Age, age) })
	fmt.Println(j, ok)
	fmt.Println(slices.IndexFunc(users, func(u User) bool { return strings.HasPrefix(u.Name, "c") }))
	oldest := slices.MaxFunc(users, func(a, b User) int { return cmp.Compare(a.Age, b.Age) })
	fmt.Println(oldest)
	zs := slices.Insert([]int{1, 2, 5}, 2, 3, 4)
	fmt.Println(zs, slices.Delete(slices.Clone(zs), 1, 3))
	fmt.Println(slices.Equal(zs, []int{1, 2, 3, 4, 5}))
	fmt.Println(slices.Repeat([]string{"ab"}, 3), slices.Concat([]int{1}, []int{2, 3}))
	chunks := [][]int{}
	for c := range slices.Chunk([]int{1, 2, 3, 4, 5}, 2) {
		chunks = append(chunks, c)
	}
	fmt.Println(chunks)
}
