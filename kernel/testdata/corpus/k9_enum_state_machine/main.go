package main

import (
	"fmt"
	"strings"
)

type State int

const (
	Idle State = iota
	Running
	Paused
	Stopped
)

var stateNames = [...]string{"idle", "running", "paused", "stopped"}

func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return fmt.Sprintf("State(%d)", int(s))
}

type Event string

type Machine struct {
	state   State
	history []string
	rules   map[State]map[Event]State
}

func NewMachine() *Machine {
	return &Machine{rules: map[State]map[Event]State{
		Idle:    {"start": Running},
		Running: {"pause": Paused, "stop": Stopped},
		Paused:  {"resume": Running, "stop": Stopped},
	}}
}

func (m *Machine) Fire(e Event) error {
	next, ok := m.rules[m.state][e]
	if !ok {
		return fmt.Errorf("event %q not allowed in state %v", e, m.state)
	}
	m.history = append(m.history, fmt.Sprintf("%v-%s->%v", m.state, e, next))
	m.state = next
	return nil
}

func main() {
	m := NewMachine()
	for _, e := range []Event{"start", "pause", "start", "resume", "stop", "resume"} {
		if err := m.Fire(e); err != nil {
			fmt.Println("error:", err)
		}
	}
	fmt.Println(strings.Join(m.history, " | "))
	fmt.Println(m.state, State(7), Paused+1)
	fmt.Printf("%v %s %q\n", Running, Paused, Idle)
	counts := map[State]int{}
	for _, h := range m.history {
		for s := Idle; s <= Stopped; s++ {
			if strings.HasSuffix(h, ">"+s.String()) {
				counts[s]++
			}
		}
	}
	fmt.Println(counts[Running], counts[Paused], counts[Stopped])
	switch m.state {
	case Stopped:
		fmt.Println("finished")
	default:
		fmt.Println("still going")
	}
}
