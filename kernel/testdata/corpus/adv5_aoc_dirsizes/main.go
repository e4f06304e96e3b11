package main

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

const session = `$ cd /
$ ls
dir a
14848514 b.txt
8504156 c.dat
dir d
$ cd a
$ ls
dir e
29116 f
2557 g
62596 h.lst
$ cd e
$ ls
584 i
$ cd ..
$ cd ..
$ cd d
$ ls
4060174 j
8033020 d.log
5626152 d.ext
7214296 k`

type Dir struct {
	name  string
	files map[string]int
	dirs  map[string]*Dir
	up    *Dir
}

func newDir(name string, up *Dir) *Dir {
	return &Dir{name: name, files: map[string]int{}, dirs: map[string]*Dir{}, up: up}
}

func (d *Dir) Size(visit func(*Dir, int)) int {
	total := 0
	for _, s := range d.files {
		total += s
	}
	names := make([]string, 0, len(d.dirs))
	for n := range d.dirs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		total += d.dirs[n].Size(visit)
	}
	visit(d, total)
	return total
}

func main() {
	root := newDir("/", nil)
	cwd := root
	for _, line := range strings.Split(session, "\n") {
		f := strings.Fields(line)
		switch {
		case f[0] == "$" && f[1] == "cd":
			switch f[2] {
			case "/":
				cwd = root
			case "..":
				cwd = cwd.up
			default:
				cwd = cwd.dirs[f[2]]
			}
		case f[0] == "$":
		case f[0] == "dir":
			cwd.dirs[f[1]] = newDir(f[1], cwd)
		default:
			n, _ := strconv.Atoi(f[0])
			cwd.files[f[1]] = n
		}
	}
	small := 0
	sizes := map[string]int{}
	used := root.Size(func(d *Dir, s int) {
		sizes[d.name] = s
		if s <= 100000 {
			small += s
		}
	})
	fmt.Println("part 1:", small)
	need := 30000000 - (70000000 - used)
	best := used
	for _, s := range sizes {
		if s >= need && s < best {
			best = s
		}
	}
	fmt.Println("part 2:", best, sizes)
}
