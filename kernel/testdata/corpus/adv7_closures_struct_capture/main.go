package main

import "fmt"

type Counter struct {
	Name  string
	Count int
}

type Stats struct {
	Min, Max, Sum int
	N             int
}

func tracker() (record func(int), report func() Stats) {
	var s Stats
	first := true
	record = func(v int) {
		if first {
			s = Stats{Min: v, Max: v}
			first = false
		}
		s.Min = min(s.Min, v)
		s.Max = max(s.Max, v)
		s.Sum += v
		s.N++
	}
	report = func() Stats { return s }
	return
}

func main() {
	rec, rep := tracker()
	for _, v := range []int{5, 3, 9, 1, 7} {
		rec(v)
	}
	fmt.Printf("%+v\n", rep())

	c := Counter{Name: "clicks"}
	inc := func() { c.Count++ }
	reset := func() { c = Counter{Name: c.Name} }
	inc()
	inc()
	fmt.Println(c)
	reset()
	inc()
	fmt.Println(c)

	var handlers []func() string
	for _, name := range []string{"a", "b"} {
		cfg := Counter{Name: name}
		handlers = append(handlers, func() string {
			cfg.Count++
			return fmt.Sprint(cfg)
		})
	}
	fmt.Println(handlers[0](), handlers[0](), handlers[1]())

	type point struct{ X, Y int }
	pos := point{}
	moves := map[byte]func(){
		'U': func() { pos.Y++ },
		'D': func() { pos.Y-- },
		'L': func() { pos.X-- },
		'R': func() { pos.X++ },
	}
	visited := map[point]bool{pos: true}
	for _, m := range []byte("UURRDLLLU") {
		moves[m]()
		visited[pos] = true
	}
	fmt.Println(pos, len(visited))
	pos = point{10, 10}
	moves['U']()
	fmt.Println(pos)
}
