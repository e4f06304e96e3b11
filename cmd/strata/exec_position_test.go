package main

import "testing"

// An error without a column (a compiled block's panic: Go traces give
// lines) prints file:line, not "x.go:15:0".
func TestPositionOmitsAnUnknownColumn(t *testing.T) {
	if got := position("gp.go", 15, 0); got != "gp.go:15" {
		t.Errorf("no column: %q", got)
	}
	if got := position("gp.go", 15, 7); got != "gp.go:15:7" {
		t.Errorf("with column: %q", got)
	}
}
