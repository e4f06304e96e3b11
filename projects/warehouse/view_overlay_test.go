package warehouse

import (
	"context"
	"testing"

	"github.com/stratahq/strata/blocks/sdk"
)

// TestOverlayFollowsSchemaAndRetention: an overlay's view shows the
// owner's pinned version where it has one and the current one elsewhere;
// a schema change in the main product (a new storage table) reaches the
// overlay's view in the same transaction, and retention that drops the
// last version of the old schema's table leaves the view readable.
func TestOverlayFollowsSchemaAndRetention(t *testing.T) {
	ctx := context.Background()
	wh := openTemp(t, Options{Retention: 1})
	publish(t, wh, "p", "2024-01-01", ids(t, 1))
	publish(t, wh, "p", "2024-01-02", ids(t, 2))
	if err := wh.CreateOverlay(ctx, "dev", "env:dev"); err != nil {
		t.Fatal(err)
	}
	assertRows(t, query(t, wh, `SELECT _partition, id FROM dev.p ORDER BY 1`), row("2024-01-01", int64(1)), row("2024-01-02", int64(2)))
	o := out("p", "2024-01-02", ids(t, 20))
	o.Pin = "env:dev"
	if _, err := wh.Stage(ctx, []Output{o}); err != nil {
		t.Fatal(err)
	}
	assertRows(t, query(t, wh, `SELECT _partition, id FROM dev.p ORDER BY 1`), row("2024-01-01", int64(1)), row("2024-01-02", int64(20)))
	assertRows(t, query(t, wh, `SELECT _partition, id FROM main.p ORDER BY 1`), row("2024-01-01", int64(1)), row("2024-01-02", int64(2)))

	// Prod adds a column to both partitions: the old schema's table keeps
	// only the pinned version, and the overlay shows the new column.
	wide := func(id int64) *sdk.Table {
		return table(t, cols(sdk.Int64("id"), sdk.String("note")), row(id, "new"))
	}
	publish(t, wh, "p", "2024-01-01", wide(100))
	publish(t, wh, "p", "2024-01-02", wide(200))
	assertRows(t, query(t, wh, `SELECT _partition, id, note FROM dev.p ORDER BY 1`), row("2024-01-01", int64(100), "new"), row("2024-01-02", int64(20), nil))
	assertRows(t, query(t, wh, `SELECT _partition, id, note FROM main.p ORDER BY 1`), row("2024-01-01", int64(100), "new"), row("2024-01-02", int64(200), "new"))

	// Released, the pinned version goes at the next retention, its table
	// with it; the overlay's view is rebuilt and reads prod's.
	if err := wh.Unpin(ctx, "env:dev"); err != nil {
		t.Fatal(err)
	}
	publish(t, wh, "p", "2024-01-02", wide(300))
	assertRows(t, query(t, wh, `SELECT _partition, id FROM dev.p ORDER BY 1`), row("2024-01-01", int64(100)), row("2024-01-02", int64(300)))
	if err := wh.DropOverlay(ctx, "dev"); err != nil {
		t.Fatal(err)
	}
	if _, err := wh.Query(ctx, `SELECT * FROM dev.p`); err == nil {
		t.Fatal("dev.p is still there after DropOverlay")
	}
	for _, bad := range []string{"main", "_strata", "a b", ""} {
		if err := wh.CreateOverlay(ctx, bad, "x"); err == nil {
			t.Fatalf("overlay %q accepted", bad)
		}
	}
}
