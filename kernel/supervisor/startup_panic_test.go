package supervisor

import (
	"context"
	"strings"
	"testing"
	"time"
)

// A kernel that panics while its packages initialize is reported by the
// panic and the block's line, not by the raw trace.
func TestStartupPanicNamesTheBlockLine(t *testing.T) {
	t.Parallel()
	trace := `panic: open config.json: no such file or directory

goroutine 1 [running]:
strata.worker/blocks/seed_5b03f63b.mustRead(...)
	blocks/seed/seed.go:14
strata.worker/blocks/seed_5b03f63b.init()
	blocks/seed/seed.go:9 +0x85
`
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := Start(ctx, Config{Command: []string{"sh", "-c", "printf '%s' \"$TRACE\" >&2; exit 2"}, Env: []string{"TRACE=" + trace}})
	want := "kernel exited before ready: panic: open config.json: no such file or directory (at blocks/seed/seed.go:14, while the blocks' packages initialized"
	if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "goroutine 1") {
		t.Fatalf("start of a kernel that panics in init: %v", err)
	}
}
