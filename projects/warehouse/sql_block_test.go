package warehouse

import (
	"context"
	"testing"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

// A SQL block reads its inputs by upstream id, straight from the Go tables:
// every column type and NULLs come through, an input can be named twice, one
// without columns still is a relation, an input shadows a product of the
// same name, and the next block on the pooled connection sees its own
// inputs, not the last one's.
func TestRunSQLReadsInputsByName(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	wh := openTemp(t)
	publish(t, wh, "orders", "2024-03-01", ids(t, 100, 200, 300)) // shadowed below
	at := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
	orders := table(t, cols(sdk.Int64("id"), sdk.Float64("amount"), sdk.String("channel"), sdk.Bool("sub"), sdk.Time("at")),
		row(int64(1), 2.5, "web", true, at),
		row(int64(2), 4.0, nil, false, at.Add(time.Hour)),
		row(int64(3), nil, "app", nil, at.Add(2*time.Hour)))
	empty := sdk.NewTable()
	got, err := wh.RunSQL(ctx, `-- the partition's orders
		SELECT count(*) AS n, sum(o.amount) AS total, count(o.channel) AS channels, count_if(o.sub) AS subs,
		       max(o.at) AS last, (SELECT count(*) FROM orders) AS again, (SELECT count(*) FROM nothing) AS none,
		       $partition_key AS day
		FROM orders o WHERE o.at >= $partition_start`,
		map[string]*sdk.Table{"orders": orders, "nothing": empty},
		map[string]any{"partition_key": "2024-03-01", "partition_start": at, "partition_end": at.AddDate(0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	if got.Len() != 1 {
		t.Fatalf("%d rows, want 1", got.Len())
	}
	check := func(name string, want any) {
		t.Helper()
		if v := got.Column(name).Value(0); v != want {
			t.Errorf("%s = %v (%T), want %v", name, v, v, want)
		}
	}
	check("n", int64(3))
	check("total", 6.5)
	check("channels", int64(2))
	check("subs", int64(1))
	check("again", int64(3))
	check("none", int64(0))
	check("day", "2024-03-01")
	if last := got.Column("last").Times()[0]; !last.Equal(at.Add(2 * time.Hour)) {
		t.Errorf("last = %v, want %v", last, at.Add(2*time.Hour))
	}

	// Same names, other inputs: nothing of the last block is left behind.
	again, err := wh.RunSQL(ctx, `SELECT sum(id) AS s FROM orders`, map[string]*sdk.Table{"orders": ids(t, 7, 8)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := again.Column("s").Value(0); s != float64(15) && s != int64(15) {
		t.Fatalf("sum = %v (%T), want 15 from this block's input", s, s)
	}
	if _, err := wh.RunSQL(ctx, `SELECT * FROM nothing`, nil, nil); err == nil {
		t.Fatal("an input of an earlier block is still visible")
	}
}
