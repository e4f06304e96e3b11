package pgtest_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/pgtest"
)

func TestClusterStoresAndReturnsRows(t *testing.T) {
	c := pgtest.Start(t)
	if v := c.Psql(t, "SHOW server_version"); v == "" || v[0] < '1' || v[0] > '9' {
		t.Fatalf("server_version %q", v)
	}
	c.Psql(t, "CREATE TABLE orders (id int PRIMARY KEY, amount numeric(10,2), day date)")
	c.Psql(t, "INSERT INTO orders VALUES (1, 9.50, '2024-01-01'), (2, 20.25, '2024-01-02')")
	if got := c.Psql(t, "SELECT id, amount, day FROM orders ORDER BY id"); got != "1|9.50|2024-01-01\n2|20.25|2024-01-02" {
		t.Fatalf("rows back:\n%s", got)
	}
	if !strings.Contains(c.DSN(), "@127.0.0.1:") || !strings.Contains(c.ConnString(), "password="+c.Password) {
		t.Errorf("DSN %s / conn string %s", c.DSN(), c.ConnString())
	}
}

// A wrong password is refused: the cluster really checks it.
func TestClusterRequiresThePassword(t *testing.T) {
	c := pgtest.Start(t)
	bad := *c
	bad.Password = "wrong"
	if _, err := bad.PsqlErr(t.Context(), "SELECT 1"); err == nil || !strings.Contains(err.Error(), "password authentication failed") {
		t.Fatalf("login with a wrong password: %v", err)
	}
}

// Two clusters at once get two ports; each is gone after its test.
func TestClustersAreIndependentAndRemoved(t *testing.T) {
	var dir string
	t.Run("two", func(t *testing.T) {
		a, b := pgtest.Start(t), pgtest.Start(t)
		if a.Port == b.Port {
			t.Fatalf("both on port %d", a.Port)
		}
		a.Psql(t, "CREATE TABLE only_in_a (x int)")
		if got := b.Psql(t, "SELECT count(*) FROM pg_tables WHERE tablename = 'only_in_a'"); got != "0" {
			t.Fatalf("b sees a's table: %s", got)
		}
		dir = a.Dir
	})
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("cluster folder %s after its test: %v", dir, err)
	}
}
