package engine

import (
	"context"
	"strings"
	"testing"
)

// A rate so small that its interval overflows, or a negative concurrency,
// is refused with the field and the accepted range, not run unpaced or
// replaced by the default.
func TestSpecRefusesOutOfRangePacing(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"0.000000000001/m", "rate"},
		{"1e-300/s", "rate"},
		{"1e12/s", "rate"},
		{"-1/m", "rate"},
		{"0/m", "starts no partition"},
		{"0", "starts no partition"},
	} {
		_, err := ParseRate(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "between") {
			t.Errorf("ParseRate(%q) = %v, want an error naming %s and the accepted range", tc.in, err, tc.want)
		}
	}
	for _, ok := range []string{"", "1/h", "600/m", "10/s"} {
		if _, err := ParseRate(ok); err != nil {
			t.Errorf("ParseRate(%q): %v", ok, err)
		}
	}

	e := newEnv(t, false, dailyFiles(""))
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		edit func(*BackfillSpec)
		want []string
	}{
		{"negative concurrency", func(s *BackfillSpec) { s.Concurrency = -5 }, []string{"concurrency -5", "between 1 and"}},
		{"huge concurrency", func(s *BackfillSpec) { s.Concurrency = 1 << 30 }, []string{"concurrency", "between 1 and"}},
		{"tiny rate", func(s *BackfillSpec) { s.RatePerMin = 1e-12 }, []string{"rate_per_min", "between"}},
		{"negative rate", func(s *BackfillSpec) { s.RatePerMin = -3 }, []string{"rate_per_min", "between"}},
		{"written zero rate", func(s *BackfillSpec) { s.Rate = "0/m" }, []string{`rate "0/m" starts no partition`, "between"}},
		{"rate twice", func(s *BackfillSpec) { s.Rate, s.RatePerMin = "2/m", 2 }, []string{"give one of them"}},
	} {
		s := spec("2024-01-01", "2024-01-03")
		tc.edit(&s)
		_, err := e.eng.Plan(ctx, s, 0, -1)
		for _, w := range tc.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%s: plan error %v, want it to say %q", tc.name, err, w)
			}
		}
		if _, err := e.eng.Launch(ctx, s); err == nil {
			t.Errorf("%s: launched", tc.name)
		}
	}
	if n := e.count(`SELECT count(*) FROM _strata.backfills`); n != 0 {
		t.Fatalf("%d backfills recorded from refused specs", n)
	}
	// Zero still means "the pipeline's default" and "unpaced".
	s := spec("2024-01-01", "2024-01-03")
	s.Concurrency = 0
	if _, err := e.eng.Plan(ctx, s, 0, -1); err != nil {
		t.Fatal(err)
	}
	// A written rate is the CLI's form of rate_per_min.
	s.Rate = "2/m"
	if p, err := e.eng.Plan(ctx, s, 0, -1); err != nil || p.Spec.RatePerMin != 2 || p.Spec.Rate != "" {
		t.Fatalf("rate 2/m: %v", err)
	}
}
