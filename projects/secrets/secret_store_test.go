package secrets

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestResolveFromTheEnvironment(t *testing.T) {
	t.Setenv("STRATA_TEST_PG_URL", "postgres://app:s3cr3t-pw@127.0.0.1:5432/shop")
	s := New(t.TempDir(), map[string]Spec{"pg": {Env: "STRATA_TEST_PG_URL"}, "gone": {Env: "STRATA_TEST_NOT_SET"}})
	v, err := s.Resolve("pg")
	if err != nil || v != "postgres://app:s3cr3t-pw@127.0.0.1:5432/shop" {
		t.Fatalf("Resolve(pg) = %q, %v", v, err)
	}
	if _, err := s.Resolve("gone"); err == nil || !strings.Contains(err.Error(), "STRATA_TEST_NOT_SET is not set") {
		t.Errorf("unset variable: %v", err)
	}
	if _, err := s.Resolve("nope"); !errors.Is(err, ErrUnknown) || !strings.Contains(err.Error(), "gone, pg") {
		t.Errorf("unknown name: %v", err)
	}
}

func TestResolveFromAPrivateFileOutsideTheProject(t *testing.T) {
	proj, outside := t.TempDir(), t.TempDir()
	private := filepath.Join(outside, "token")
	os.WriteFile(private, []byte("tok-123456\n"), 0o600)
	open := filepath.Join(outside, "open")
	os.WriteFile(open, []byte("tok-654321\n"), 0o640)
	inside := filepath.Join(proj, "secrets", "token")
	os.MkdirAll(filepath.Dir(inside), 0o755)
	os.WriteFile(inside, []byte("tok-000000\n"), 0o600)
	s := New(proj, map[string]Spec{"ok": {File: private}, "open": {File: open}, "inside": {File: "secrets/token"}, "abs_inside": {File: inside}})

	if v, err := s.Resolve("ok"); err != nil || v != "tok-123456" {
		t.Fatalf("private file: %q, %v", v, err)
	}
	if _, err := s.Resolve("open"); err == nil || !strings.Contains(err.Error(), "readable by others (mode 0640): chmod 600") {
		t.Errorf("group-readable file: %v", err)
	}
	for _, n := range []string{"inside", "abs_inside"} {
		if _, err := s.Resolve(n); err == nil || !strings.Contains(err.Error(), "inside the project folder") {
			t.Errorf("%s: %v", n, err)
		}
	}
	// A rotated value is read at once.
	os.WriteFile(private, []byte("tok-rotated\n"), 0o600)
	if v, _ := s.Resolve("ok"); v != "tok-rotated" {
		t.Errorf("after rotation: %q", v)
	}
}

func TestMaskHidesValuesAndTheirPasswords(t *testing.T) {
	t.Setenv("STRATA_TEST_URL", "postgres://app:pw-in-url@127.0.0.1/shop")
	t.Setenv("STRATA_TEST_KV", "host=127.0.0.1 user=app password=pw-in-kv dbname=shop")
	t.Setenv("STRATA_TEST_SHORT", "abc")
	s := New(t.TempDir(), map[string]Spec{"url": {Env: "STRATA_TEST_URL"}, "kv": {Env: "STRATA_TEST_KV"}, "short": {Env: "STRATA_TEST_SHORT"}})
	if s.Active() || s.Mask("nothing yet") != "nothing yet" {
		t.Fatal("masking before anything was resolved")
	}
	for _, n := range []string{"url", "kv"} {
		if _, err := s.Resolve(n); err != nil {
			t.Fatal(err)
		}
	}
	in := `connect postgres://app:pw-in-url@127.0.0.1/shop failed; "host=127.0.0.1 user=app password=pw-in-kv dbname=shop"; password=pw-in-url; pw-in-kv`
	want := `connect *** failed; "***"; password=***; ***`
	if got := s.Mask(in); got != want {
		t.Errorf("Mask:\n got  %s\n want %s", got, want)
	}
	if _, err := s.Resolve("short"); err == nil || !strings.Contains(err.Error(), "could not be masked") {
		t.Errorf("a 3-character secret: %v", err)
	}
	var none *Store
	if none.Mask("x") != "x" || none.Active() {
		t.Error("a nil store masks")
	}
}
