package main

import "fmt"

// retry walks the fallbacks with goto, as a state machine written by hand
// might, and keeps a report line for each attempt.
func retry(servers map[int]string, limit int) []func() string {
	var report []func() string
	attempt := 0
next:
	addr, ok := servers[attempt]
	report = append(report, func() string {
		if !ok {
			return fmt.Sprintf("attempt %d: no server (addr %q)", attempt, addr)
		}
		return fmt.Sprintf("attempt: %s", addr)
	})
	attempt++
	if attempt < limit {
		goto next
	}
	return report
}

func main() {
	for _, line := range retry(map[int]string{0: "10.0.0.1", 1: "10.0.0.2"}, 3) {
		fmt.Println(line())
	}
}
