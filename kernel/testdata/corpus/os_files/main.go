package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

func main() {
	dir, err := os.MkdirTemp("", "corpus-")
	if err != nil {
		fmt.Println("mkdir:", err)
		return
	}
	defer os.RemoveAll(dir)
	for i, name := range []string{"b.txt", "a.txt", "c.log"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(fmt.Sprintf("file %d\n", i)), 0o644); err != nil {
			fmt.Println(err)
		}
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	fmt.Println(names)
	b, _ := os.ReadFile(filepath.Join(dir, "a.txt"))
	fmt.Print(string(b))
	matches, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
	fmt.Println(len(matches))
	_, err = os.Stat(filepath.Join(dir, "missing"))
	fmt.Println(os.IsNotExist(err))
	f, _ := os.CreateTemp(dir, "tmp-*.dat")
	f.WriteString("12345")
	info, _ := f.Stat()
	fmt.Println(info.Size())
	f.Close()
}
