package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
)

const access = `2024-01-01T10:00:00Z GET /index.html 200 512
2024-01-01T10:00:01Z GET /about 200 1024
2024-01-01T10:00:02Z POST /api/login 401 64
2024-01-01T10:00:03Z GET /index.html 200 512
2024-01-01T10:00:04Z GET /missing 404 0
malformed line here
2024-01-01T10:00:05Z POST /api/login 200 128
2024-01-01T10:00:06Z GET /index.html 304 0`

type stat struct {
	path   string
	hits   int
	bytes  int
	status map[int]int
}

func main() {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	top := fs.Int("top", 3, "rows to show")
	minHits := fs.Int("min", 1, "minimum hits")
	if err := fs.Parse([]string{"-top", "4", "-min=1"}); err != nil {
		fmt.Println(err)
		return
	}
	stats := map[string]*stat{}
	bad := 0
	sc := bufio.NewScanner(strings.NewReader(access))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 5 {
			bad++
			continue
		}
		code, err1 := strconv.Atoi(f[3])
		size, err2 := strconv.Atoi(f[4])
		if err1 != nil || err2 != nil {
			bad++
			continue
		}
		s, ok := stats[f[2]]
		if !ok {
			s = &stat{path: f[2], status: map[int]int{}}
			stats[f[2]] = s
		}
		s.hits++
		s.bytes += size
		s.status[code]++
	}
	list := make([]*stat, 0, len(stats))
	for _, s := range stats {
		if s.hits >= *minHits {
			list = append(list, s)
		}
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].hits != list[j].hits {
			return list[i].hits > list[j].hits
		}
		return list[i].path < list[j].path
	})
	if len(list) > *top {
		list = list[:*top]
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PATH\tHITS\tBYTES\tSTATUS")
	for _, s := range list {
		codes := make([]int, 0, len(s.status))
		for c := range s.status {
			codes = append(codes, c)
		}
		sort.Ints(codes)
		var parts []string
		for _, c := range codes {
			parts = append(parts, fmt.Sprintf("%d×%d", c, s.status[c]))
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\n", s.path, s.hits, s.bytes, strings.Join(parts, ","))
	}
	tw.Flush()
	fmt.Println("malformed:", bad, "paths:", len(stats), "top:", *top)
	fs.VisitAll(func(f *flag.Flag) { fmt.Printf("-%s=%s (%s)\n", f.Name, f.Value, f.Usage) })
	err := fs.Parse([]string{"-nope"})
	fmt.Println("parse error:", err)
}
