package sdk_test

import (
	"testing"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/e2e/pgtest"
)

// The statements Upsert and ReplacePartition issue are Postgres's: a real
// Postgres prepares and runs them (through psql, since strata's go.mod
// carries no Postgres driver; a block brings its own).
func TestUpsertStatementsRunOnPostgres(t *testing.T) {
	c := pgtest.Start(t)
	c.Psql(t, `CREATE TABLE metrics (day date, shop text, revenue numeric(12,2), orders bigint, PRIMARY KEY (day, shop))`)
	tb := sdk.NewTable(sdk.Date("day"), sdk.String("shop"), sdk.Decimal("revenue", 12, 2), sdk.Int64("orders"))
	q := sdk.InsertSQL("public.metrics", tb, 2, sdk.UpsertClause(tb, []string{"day", "shop"}))
	got := c.Psql(t, `PREPARE up AS `+q+`;
		EXECUTE up('2024-03-10', 'a', '10.50', 3, '2024-03-10', 'b', '1.00', 1);
		EXECUTE up('2024-03-10', 'a', '10.50', 3, '2024-03-10', 'b', '1.00', 1);
		EXECUTE up('2024-03-10', 'b', '2.25', 2, '2024-03-10', 'c', '7.00', 1);
		SELECT count(*) || ',' || sum(revenue) || ',' || sum(orders) FROM metrics`)
	if got != "3,19.75,6" {
		t.Fatalf("metrics after three upserts: %q, want 3,19.75,6\n%s", got, q)
	}
}
