package engine

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stratahq/strata/projects/project"
)

func TestCheckStarted(t *testing.T) {
	t.Parallel()
	spec, err := SpecOf(project.PartitionConfig{Interval: "day", Timezone: "America/New_York"})
	if err != nil {
		t.Fatal(err)
	}
	// 2024-03-10 04:59 UTC is 23:59 on the 9th in New York.
	now := time.Date(2024, 3, 10, 4, 59, 0, 0, time.UTC)
	for _, c := range []struct {
		key     string
		refused bool
	}{
		{"2024-03-08", false}, // complete
		{"2024-03-09", false}, // under way
		{"2024-03-10", true},  // starts in a minute
		{"2099-01-01", true},
	} {
		p, err := spec.Parse(c.key)
		if err != nil {
			t.Fatal(err)
		}
		err = checkStarted("clv", "partition", spec, p, now)
		var ns *NotStartedError
		if got := errors.As(err, &ns); got != c.refused {
			t.Fatalf("%s: refused=%v, want %v (%v)", c.key, got, c.refused, err)
		}
		if c.refused && (ns.Current != "2024-03-09" || ns.Latest != "2024-03-08" || ns.Key != c.key) {
			t.Fatalf("%s: %+v", c.key, ns)
		}
	}
}

// A run of a partition that has not started is refused before anything
// runs or is recorded, with the words a backfill uses.
func TestRunRefusesFuturePartition(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	_, err := e.eng.Run(context.Background(), "p", "2099-01-02", RunOptions{})
	var ns *NotStartedError
	if !errors.As(err, &ns) || ns.Field != "partition" || ns.Key != "2099-01-02" {
		t.Fatalf("run into the future: %v", err)
	}
	if n := e.count(`SELECT count(*) FROM _strata.run_events WHERE partition_key = '2099-01-02'`); n != 0 {
		t.Fatalf("%d run events recorded for a refused run", n)
	}
	if err := e.eng.CheckStarted("p", "2099-01-02", time.Now()); !errors.As(err, &ns) {
		t.Fatalf("CheckStarted: %v", err)
	}
}
