package main

import (
	"fmt"
	"sort"
	"sync"
)

type Fetcher interface {
	Fetch(url string) (body string, urls []string, err error)
}

type SafeSet struct {
	mu   sync.Mutex
	seen map[string]bool
}

func (s *SafeSet) Visit(url string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen[url] {
		return false
	}
	s.seen[url] = true
	return true
}

type result struct {
	url, body string
	err       error
	depth     int
}

func Crawl(url string, depth int, f Fetcher, set *SafeSet, out chan<- result, wg *sync.WaitGroup) {
	defer wg.Done()
	if depth <= 0 || !set.Visit(url) {
		return
	}
	body, urls, err := f.Fetch(url)
	out <- result{url, body, err, depth}
	if err != nil {
		return
	}
	for _, u := range urls {
		wg.Add(1)
		go Crawl(u, depth-1, f, set, out, wg)
	}
}

type fakeFetcher map[string]*fakeResult

type fakeResult struct {
	body string
	urls []string
}

func (f fakeFetcher) Fetch(url string) (string, []string, error) {
	if res, ok := f[url]; ok {
		return res.body, res.urls, nil
	}
	return "", nil, fmt.Errorf("not found: %s", url)
}

var fetcher = fakeFetcher{
	"https://golang.org/":         &fakeResult{"The Go Programming Language", []string{"https://golang.org/pkg/", "https://golang.org/cmd/"}},
	"https://golang.org/pkg/":     &fakeResult{"Packages", []string{"https://golang.org/", "https://golang.org/cmd/", "https://golang.org/pkg/fmt/", "https://golang.org/pkg/os/"}},
	"https://golang.org/pkg/fmt/": &fakeResult{"Package fmt", []string{"https://golang.org/", "https://golang.org/pkg/"}},
	"https://golang.org/pkg/os/":  &fakeResult{"Package os", []string{"https://golang.org/", "https://golang.org/pkg/"}},
}

func main() {
	out := make(chan result)
	var wg sync.WaitGroup
	set := &SafeSet{seen: map[string]bool{}}
	wg.Add(1)
	go Crawl("https://golang.org/", 4, fetcher, set, out, &wg)
	go func() { wg.Wait(); close(out) }()
	var lines []string
	for r := range out {
		if r.err != nil {
			lines = append(lines, r.err.Error())
			continue
		}
		lines = append(lines, fmt.Sprintf("found: %s %q", r.url, r.body))
	}
	sort.Strings(lines)
	for _, l := range lines {
		fmt.Println(l)
	}
	fmt.Println(len(set.seen), "visited")
}
