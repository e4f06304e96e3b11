package child

import (
	"os"
	"testing"
	"time"
)

// Not parallel: it changes the test process's environment and folder.
// A run's os.Setenv, os.Chdir and time.Local = … are gone for the next.
func TestProcessStateRestored(t *testing.T) {
	wd, _ := os.Getwd()
	local := time.Local
	start := currentState()
	os.Setenv("PROCSTATE_RESTORE", "set by a run")
	os.Chdir(os.TempDir())
	time.Local = time.UTC
	start.restore()
	if v, ok := os.LookupEnv("PROCSTATE_RESTORE"); ok {
		t.Errorf("env kept %q", v)
	}
	if now, _ := os.Getwd(); now != wd {
		t.Errorf("folder %s, want %s", now, wd)
	}
	if time.Local != local {
		t.Errorf("time.Local %v, want %v", time.Local, local)
	}
}
