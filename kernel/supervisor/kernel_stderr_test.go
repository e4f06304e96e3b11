package supervisor

import "testing"

// The lines a worker writes for the supervisor are its error, in words;
// the block's own lines around them stay the block's output.
func TestKernelLinesAreNotTheBlocksOutput(t *testing.T) {
	in := "debug 1\nstrata: block called os.Exit(3) at blocks/a/a.go:9\nstrata kernel: exceeded memory limit of 64 MiB (70 MiB in use)\nstrata is a word\n"
	if got, want := withoutKernelLines(in), "debug 1\nstrata is a word\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if got := withoutKernelLines("no marker"); got != "no marker" {
		t.Fatalf("got %q", got)
	}
}
