package warehouse

import (
	"context"
	"fmt"
	"time"
)

// RunVersion is one version a run published, with the pipeline version
// (snapshot) that computed it: a backfill's lineage is made of these.
type RunVersion struct {
	Product   string
	Partition string
	Version   int
	RunID     string
	Snapshot  string
	CreatedAt time.Time
}

// VersionsOfRuns are the versions, with a pipeline version recorded, of the
// runs whose id starts with prefix (a backfill's "ID:"). A backfill's
// status reads them on every poll (the UI's every 2 s), so they are
// followed (Follow): on a lake a read costs the commits since the last
// one, not a scan of every version the warehouse kept.
func (w *Warehouse) VersionsOfRuns(ctx context.Context, prefix string) ([]RunVersion, error) {
	rows, err := w.Follow(ctx, VersionsOfRunsFollowed(prefix))
	if err != nil {
		return nil, fmt.Errorf("versions of runs %s: %w", prefix, err)
	}
	return RunVersionsOf(rows), nil
}

// VersionsOfRunsFollowed is VersionsOfRuns' query, to follow with others
// (FollowAll); RunVersionsOf reads its rows.
func VersionsOfRunsFollowed(prefix string) Followed {
	return Followed{
		Table:   "versions",
		Key:     []string{"product", "partition", "version"},
		Columns: []string{"run_id", "snapshot", "created_at"},
		Where:   "starts_with(run_id, ?) AND snapshot <> ''",
		Args:    []any{prefix},
	}
}

// RunVersionsOf reads the rows of VersionsOfRunsFollowed.
func RunVersionsOf(rows [][]any) []RunVersion {
	out := make([]RunVersion, 0, len(rows))
	for _, r := range rows {
		v := RunVersion{Product: asString(r[0]), Partition: asString(r[1]), RunID: asString(r[3]), Snapshot: asString(r[4])}
		v.Version = int(asInt(r[2]))
		v.CreatedAt, _ = r[5].(time.Time)
		out = append(out, v)
	}
	return out
}

func asString(v any) string {
	s, _ := v.(string)
	return s
}

func asInt(v any) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case int32:
		return int64(x)
	case int:
		return int64(x)
	}
	return 0
}
