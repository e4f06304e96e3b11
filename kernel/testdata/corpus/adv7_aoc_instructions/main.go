package main

import (
	"fmt"
	"strconv"
	"strings"
)

type Op int

const (
	Nop Op = iota
	Acc
	Jmp
)

type Instr struct {
	Op  Op
	Arg int
}

type Machine struct {
	prog []Instr
	pc   int
	acc  int
}

type State struct {
	PC, Acc int
	Looped  bool
}

func parse(src string) ([]Instr, error) {
	var prog []Instr
	for i, line := range strings.Split(strings.TrimSpace(src), "\n") {
		name, arg, ok := strings.Cut(line, " ")
		if !ok {
			return nil, fmt.Errorf("line %d: no argument", i+1)
		}
		n, err := strconv.Atoi(arg)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", i+1, err)
		}
		var op Op
		switch name {
		case "nop":
			op = Nop
		case "acc":
			op = Acc
		case "jmp":
			op = Jmp
		default:
			return nil, fmt.Errorf("line %d: unknown op %q", i+1, name)
		}
		prog = append(prog, Instr{op, n})
	}
	return prog, nil
}

func (m *Machine) Run() (st State) {
	seen := make(map[int]bool)
	m.pc, m.acc = 0, 0
	for m.pc < len(m.prog) {
		if seen[m.pc] {
			st = State{m.pc, m.acc, true}
			return
		}
		seen[m.pc] = true
		in := m.prog[m.pc]
		switch in.Op {
		case Acc:
			m.acc += in.Arg
		case Jmp:
			m.pc += in.Arg
			continue
		}
		m.pc++
	}
	st = State{PC: m.pc, Acc: m.acc}
	return
}

const input = `nop +0
acc +1
jmp +4
acc +3
jmp -3
acc -99
acc +1
jmp -4
acc +6`

func main() {
	prog, err := parse(input)
	if err != nil {
		fmt.Println(err)
		return
	}
	m := &Machine{prog: prog}
	fmt.Printf("%+v\n", m.Run())
	for i := range prog {
		orig := prog[i]
		switch orig.Op {
		case Nop:
			prog[i].Op = Jmp
		case Jmp:
			prog[i].Op = Nop
		default:
			continue
		}
		if st := m.Run(); !st.Looped {
			fmt.Printf("fixed at %d: %+v\n", i, st)
		}
		prog[i] = orig
	}
	_, err = parse("nop +0\nmul 3")
	fmt.Println(err)
	_, err = parse("acc x1")
	fmt.Println(err)
}
