package project

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestValidateBlockID(t *testing.T) {
	t.Parallel()
	cases := []struct {
		id  string
		msg string // "" when valid
	}{
		{"raw_orders", ""},
		{"a1", ""},
		{"", "block id is empty"},
		{"Raw", `try "raw"`},
		{"1day", `try "b_1day"`},
		{"raw-orders", `try "raw_orders"`},
		{"order", "is a reserved SQL keyword"},
		{"select", "is a Go keyword"},
		{"func", "is a Go keyword"},
		{"main", `"package main" cannot be imported`},
		{strings.Repeat("a", 64), "at most 63 are allowed"},
	}
	for _, c := range cases {
		err := ValidateBlockID(c.id)
		switch {
		case c.msg == "" && err != nil:
			t.Errorf("ValidateBlockID(%q) = %v, want nil", c.id, err)
		case c.msg != "" && (err == nil || !strings.Contains(err.Error(), c.msg)):
			t.Errorf("ValidateBlockID(%q) = %v, want %q", c.id, err, c.msg)
		}
	}
	if err := ValidatePipelineID("customer-ltv"); err != nil {
		t.Errorf("ValidatePipelineID: %v", err)
	}
	if err := ValidatePipelineID("CLV"); err == nil {
		t.Error("ValidatePipelineID accepted CLV")
	}
}

func TestSafeJoin(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	proj, out := filepath.Join(base, "proj"), filepath.Join(base, "out")
	for _, d := range []string{filepath.Join(proj, "blocks"), out} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		filepath.Join(proj, "inlink"):        filepath.Join(proj, "blocks"),
		filepath.Join(proj, "outlink"):       out,
		filepath.Join(proj, "dangling.sql"):  filepath.Join(out, "missing.sql"),
		filepath.Join(proj, "blocks", "rel"): filepath.Join("..", "..", "out"),
		filepath.Join(base, "projlink"):      proj,
	}
	for link, target := range links {
		if err := os.Symlink(target, link); err != nil {
			t.Skipf("symlinks unavailable: %v", err)
		}
	}
	cases := []struct {
		dir, rel string
		want     string // path relative to dir when allowed
		unsafe   bool
	}{
		{proj, "blocks/a.sql", "blocks/a.sql", false},
		{proj, "blocks/new/new.go", "blocks/new/new.go", false},
		{proj, "a/../blocks/a.sql", "blocks/a.sql", false},
		{proj, "inlink/a.sql", "inlink/a.sql", false},
		{filepath.Join(base, "projlink"), "blocks/a.sql", "blocks/a.sql", false},
		{proj, "../out/x.sql", "", true},
		{proj, "blocks/../../out", "", true},
		{proj, "/etc/passwd", "", true},
		{proj, "outlink", "", true},
		{proj, "outlink/x.sql", "", true},
		{proj, "dangling.sql", "", true},
		{proj, "blocks/rel/x.sql", "", true},
	}
	for _, c := range cases {
		got, err := SafeJoin(c.dir, c.rel)
		if c.unsafe {
			if !errors.Is(err, ErrUnsafePath) {
				t.Errorf("SafeJoin(%s) = %q, %v; want ErrUnsafePath", c.rel, got, err)
			}
			continue
		}
		if want := filepath.Join(c.dir, filepath.FromSlash(c.want)); err != nil || got != want {
			t.Errorf("SafeJoin(%s) = %q, %v; want %q", c.rel, got, err, want)
		}
	}
	if _, err := SafeJoin(proj, ""); err == nil {
		t.Error("SafeJoin accepted an empty path")
	}
}

func TestParseBytes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		want int64
		bad  bool
	}{
		{"2GiB", 2 << 30, false},
		{"512MiB", 512 << 20, false},
		{"1.5GB", 1_500_000_000, false},
		{"1073741824", 1 << 30, false},
		{"64 mib", 64 << 20, false},
		{"2 gigs", 0, true},
		{"GiB", 0, true},
		{"-1GiB", 0, true},
	}
	for _, c := range cases {
		got, err := ParseBytes(c.in)
		if (err != nil) != c.bad || got != c.want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d (bad %v)", c.in, got, err, c.want, c.bad)
		}
	}
}
