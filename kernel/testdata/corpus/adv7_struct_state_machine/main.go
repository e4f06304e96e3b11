package main

import (
	"fmt"
	"strings"
)

type State struct {
	Name     string
	Terminal bool
}

type Transition struct {
	From  string
	Event string
}

type FSM struct {
	current State
	states  map[string]State
	table   map[Transition]string
	history []State
}

func NewFSM(start string) *FSM {
	f := &FSM{states: map[string]State{}, table: map[Transition]string{}}
	for _, s := range []State{{"idle", false}, {"running", false}, {"paused", false}, {"done", true}} {
		f.states[s.Name] = s
	}
	f.current = f.states[start]
	return f
}

func (f *FSM) On(from, event, to string) *FSM {
	f.table[Transition{from, event}] = to
	return f
}

func (f *FSM) Fire(event string) (prev State, err error) {
	prev = f.current
	to, ok := f.table[Transition{f.current.Name, event}]
	if !ok {
		err = fmt.Errorf("no transition from %s on %q", f.current.Name, event)
		return
	}
	f.history = append(f.history, f.current)
	f.current = f.states[to]
	return
}

func (f *FSM) Reset() {
	f.current = State{Name: "idle"}
	f.history = nil
}

func main() {
	m := NewFSM("idle").
		On("idle", "start", "running").
		On("running", "pause", "paused").
		On("paused", "resume", "running").
		On("running", "finish", "done")
	for _, ev := range strings.Fields("start pause pause resume finish start") {
		prev, err := m.Fire(ev)
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		fmt.Printf("%-7s %-8s -> %-8s terminal=%v\n", ev, prev.Name, m.current.Name, m.current.Terminal)
	}
	names := []string{}
	for _, h := range m.history {
		names = append(names, h.Name)
	}
	fmt.Println(strings.Join(names, ">"), len(m.table))
	saved := m.current
	m.Reset()
	fmt.Println(saved, m.current, len(m.history))
	m.current = State{"custom", true}
	fmt.Println(m.current.Name, m.current.Terminal)
	cur := &m.current
	m.current = State{"again", false}
	fmt.Println(cur.Name)
}
