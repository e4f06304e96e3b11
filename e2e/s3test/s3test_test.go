package s3test

import (
	"context"
	"strings"
	"testing"
)

// The server starts, takes a bucket and objects through signed requests,
// and refuses a wrong key.
func TestServerStoresObjects(t *testing.T) {
	s := Start(t)
	s.CreateBucket(t, "lake")
	s.Put(t, "lake", "raw/b.csv", []byte("id\n2\n"))
	s.Put(t, "lake", "raw/a b.csv", []byte("id\n1\n"))
	s.Put(t, "lake", "other/c.csv", []byte("x"))
	if got := string(s.Get(t, "lake", "raw/b.csv")); got != "id\n2\n" {
		t.Fatalf("get: %q", got)
	}
	if got := strings.Join(s.List(t, "lake", "raw/"), ","); got != "raw/a b.csv,raw/b.csv" {
		t.Fatalf("list: %s", got)
	}
	s.Delete(t, "lake", "raw/b.csv")
	if _, err := s.GetErr(context.Background(), "lake", "raw/b.csv"); err == nil {
		t.Fatal("deleted object still there")
	}
	wrong := *s
	wrong.Secret = "not-" + s.Secret
	if _, err := wrong.GetErr(context.Background(), "lake", "raw/a b.csv"); err == nil || !strings.Contains(err.Error(), "403") {
		t.Fatalf("wrong secret: %v, want 403", err)
	}
	if !strings.Contains(s.DuckDBSecret("x"), "TYPE s3") {
		t.Fatal(s.DuckDBSecret("x"))
	}
}
