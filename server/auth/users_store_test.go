package auth

import (
	"os"
	"strings"
	"testing"
)

// Two stores on one project stand for the server and `strata users`: what
// one adds or revokes, the other sees on its next lookup; only hashes are
// on disk, with mode 0600.
func TestStoreSharedAcrossProcesses(t *testing.T) {
	dir := t.TempDir()
	server, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	cli, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := server.Authenticate("anything"); ok {
		t.Fatal("an empty store accepted a token")
	}
	u, tok, err := cli.Add("ana", Editor, "test")
	if err != nil || u.TokenSHA256 != "" || len(tok) != 64 {
		t.Fatalf("add: %+v %q %v", u, tok, err)
	}
	p, ok := server.Authenticate(tok)
	if !ok || p != (Principal{Name: "ana", Role: Editor}) {
		t.Fatalf("the server sees %+v %v", p, ok)
	}
	if _, ok := server.Authenticate(tok[:63] + "x"); ok {
		t.Fatal("a wrong token was accepted")
	}
	b, _ := os.ReadFile(UsersFile(dir))
	if strings.Contains(string(b), tok) {
		t.Fatal("the token is stored in clear")
	}
	if fi, _ := os.Stat(UsersFile(dir)); fi.Mode().Perm() != 0o600 {
		t.Fatalf("users file mode %v", fi.Mode().Perm())
	}
	if _, _, err := server.Add("ana", Viewer, "test"); err == nil {
		t.Fatal("added ana twice")
	}
	if _, err := cli.Revoke("ana", "test"); err != nil {
		t.Fatal(err)
	}
	if _, ok := server.Authenticate(tok); ok {
		t.Fatal("a revoked token was accepted")
	}
	if _, err := cli.Revoke("ana", "test"); err == nil {
		t.Fatal("revoked ana twice")
	}
	// A revoked name can be given again, with a new token.
	_, tok2, err := server.Add("ana", Viewer, "test")
	if err != nil || tok2 == tok {
		t.Fatal(err)
	}
	if p, ok := cli.Authenticate(tok2); !ok || p.Role != Viewer {
		t.Fatalf("re-added ana: %+v %v", p, ok)
	}
}

func TestNamesAndRoles(t *testing.T) {
	for _, bad := range []string{"", "owner", "-x", "a b", strings.Repeat("a", 65), "../x"} {
		if CheckName(bad) == nil {
			t.Errorf("name %q accepted", bad)
		}
	}
	for _, good := range []string{"ana", "ana.b@example.com", "ci-bot_2"} {
		if err := CheckName(good); err != nil {
			t.Errorf("name %q: %v", good, err)
		}
	}
	if _, err := ParseRole("boss"); err == nil {
		t.Error("role boss accepted")
	}
	if Viewer.Allows(Editor) || !Admin.Allows(Viewer) || Admin.Allows(None) || !Viewer.Allows(Public) || Public.Allows(Viewer) {
		t.Error("role order")
	}
}
