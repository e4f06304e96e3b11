package server

import (
	"os"
	"strings"
	"testing"

	"github.com/stratahq/strata/server/auth"
)

// TestAPIDocRoles: docs/api.md's table of roles per route is the role
// table itself. STRATA_UPDATE_DOCS=1 rewrites it.
func TestAPIDocRoles(t *testing.T) {
	const path = "../docs/api.md"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	const beginMark, endMark = "<!-- roles:begin", "<!-- roles:end -->"
	i, j := strings.Index(doc, beginMark), strings.Index(doc, endMark)
	if i < 0 || j < i {
		t.Fatalf("%s has no %s ... %s section", path, beginMark, endMark)
	}
	i += strings.Index(doc[i:], "\n") + 1
	var want strings.Builder
	want.WriteString("| Route | Least role |\n|---|---|\n")
	for _, row := range auth.Table() {
		want.WriteString("| `" + row[0] + "` | " + row[1] + " |\n")
	}
	if doc[i:j] == want.String() {
		return
	}
	if os.Getenv("STRATA_UPDATE_DOCS") == "1" {
		if err := os.WriteFile(path, []byte(doc[:i]+want.String()+doc[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatalf("%s's roles per route differ from server/auth.Routes; run STRATA_UPDATE_DOCS=1 go test ./server -run TestAPIDocRoles", path)
}
