package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

type resource struct {
	name string
	log  *[]string
}

func (r resource) Close() { *r.log = append(*r.log, "close "+r.name) }

func (r *resource) Rename(s string) { r.name = s }

func openAll(names []string) (log []string) {
	for _, n := range names {
		r := resource{name: n, log: &log}
		defer r.Close()
		log = append(log, "open "+n)
	}
	return log
}

func sum(xs []int) (total int) {
	for i, x := range xs {
		defer func() { total += x * i }()
	}
	return 0
}

func withArgs() {
	var sb strings.Builder
	for i := 0; i < 4; i++ {
		defer fmt.Fprintf(&sb, "%d;", i*i)
		if i == 3 {
			defer func() { fmt.Println("built:", sb.String()) }()
		}
	}
}

func receivers() {
	v := resource{name: "first", log: new([]string)}
	for _, s := range []string{"a", "b"} {
		defer fmt.Println("deferred with", v.name)
		v.Rename(s)
	}
	fmt.Println("now", v.name)
}

func panicsAfterDefers(n int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered: %v", r)
		}
	}()
	stepsRun(n)
	return nil
}

func stepsRun(n int) {
	for i := 0; i < n; i++ {
		defer fmt.Println("cleanup step", i)
	}
	panic(errors.New("step failed"))
}

func deferredPanic() (out string) {
	defer func() { out += fmt.Sprint(recover()) }()
	inner(&out)
	return
}

func inner(out *string) {
	for i := 0; i < 3; i++ {
		defer func() {
			*out += fmt.Sprint("d", i, " ")
			if i == 1 {
				panic("in defer 1")
			}
		}()
	}
}

func locks() int {
	var mu sync.Mutex
	count := 0
	for i := 0; i < 5; i++ {
		func() {
			mu.Lock()
			defer mu.Unlock()
			count += i
		}()
	}
	return count
}

func files(dir string) ([]string, error) {
	var got []string
	for _, name := range []string{"a.txt", "b.txt"} {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		defer f.Close()
		fmt.Fprintf(f, "file %s", name)
		got = append(got, filepath.Base(f.Name()))
	}
	return got, nil
}

func main() {
	fmt.Println(strings.Join(openAll([]string{"x", "y", "z"}), ", "))
	fmt.Println(sum([]int{5, 6, 7}))
	withArgs()
	receivers()
	fmt.Println(panicsAfterDefers(3))
	fmt.Println(deferredPanic())
	fmt.Println(locks())
	dir, _ := os.MkdirTemp("", "deferloop")
	defer os.RemoveAll(dir)
	fmt.Println(files(dir))
	b, _ := os.ReadFile(filepath.Join(dir, "b.txt"))
	fmt.Println(string(b))
}
