package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

// AggregateQuery asks for a chart's numbers over a whole window, computed
// in DuckDB: a browser that read rows would see at most what it fetched (a
// month of orders drew 9 of its 31 days from the first 10,000 rows).
type AggregateQuery struct {
	// Kind is "series" (a line or bar chart: Agg of Y per bucket of X) or
	// "histogram" (rows per range of Y).
	Kind string
	// X is a time column or _partition (series only).
	X string
	// Y is the numeric column; empty for Agg count (or a histogram needs it).
	Y string
	// Agg is sum, avg, min, max or count (series only).
	Agg string
	// Bucket is the time bucket of X: auto (from the range of X), none (each
	// distinct X; each partition for _partition), minute, hour, day, week,
	// month, quarter or year.
	Bucket string
	// Bins is the histogram's number of bins, 0 for auto.
	Bins int
	// Zone is the calendar buckets follow (the pipeline's); nil is UTC.
	Zone *time.Location
	// MaxBuckets bounds what auto picks (default 400).
	MaxBuckets int
}

// QueryError is an AggregateQuery the warehouse refuses (an unknown
// column, aggregate or bucket): the caller's to fix.
type QueryError struct{ msg string }

func (e *QueryError) Error() string { return e.msg }

func badQuery(format string, args ...any) error { return &QueryError{fmt.Sprintf(format, args...)} }

// AggBucket is one point or bar of an Aggregation.
type AggBucket struct {
	// Label is the bucket's start as a wall time in the zone ("2024-03-10",
	// "2024-03", "2024-03-10 14:00"), the partition key, or a bin's range.
	Label string    `json:"label"`
	Start time.Time `json:"start,omitzero"` // the instant the bucket starts (series over time)
	Lo    float64   `json:"lo,omitempty"`   // histogram: the bin is [lo, hi)
	Hi    float64   `json:"hi,omitempty"`
	Value *float64  `json:"value"` // nil when every Y of the bucket is null
	Rows  int64     `json:"rows"`  // rows in the bucket
}

// Aggregation is what a chart draws, with what it aggregated.
type Aggregation struct {
	Kind       string      `json:"kind"`
	X          string      `json:"x,omitempty"`
	Y          string      `json:"y,omitempty"`
	Agg        string      `json:"agg"`
	Bucket     string      `json:"bucket,omitempty"` // the bucket used (auto resolved)
	BinWidth   float64     `json:"bin_width,omitempty"`
	Zone       string      `json:"zone"`
	Partitions int         `json:"partitions"`
	TotalRows  int64       `json:"total_rows"` // rows in the window
	Rows       int64       `json:"rows"`       // rows that went into a bucket
	Skipped    int64       `json:"skipped"`    // rows left out: X (series) or Y (histogram) is null
	Buckets    []AggBucket `json:"buckets"`
	// Describe says it in words: "sum of revenue per day, 31 buckets over
	// 44,000 rows".
	Describe string `json:"describe"`
}

// Buckets auto may pick, finest first, with their approximate length.
var bucketSteps = []struct {
	name string
	d    time.Duration
}{
	{"minute", time.Minute}, {"hour", time.Hour}, {"day", 24 * time.Hour}, {"week", 7 * 24 * time.Hour},
	{"month", 30 * 24 * time.Hour}, {"quarter", 91 * 24 * time.Hour}, {"year", 365 * 24 * time.Hour},
}

// AutoBucket is the finest bucket that cuts [from, to] into at most max
// buckets (year when none does).
func AutoBucket(from, to time.Time, max int) string {
	span := to.Sub(from)
	for _, b := range bucketSteps {
		if int64(span/b.d)+1 <= int64(max) {
			return b.name
		}
	}
	return "year"
}

func knownBucket(b string) bool {
	for _, s := range bucketSteps {
		if s.name == b {
			return true
		}
	}
	return b == "auto" || b == "none"
}

// Aggregate computes q over the selected partitions of product.
func (w *Warehouse) Aggregate(ctx context.Context, product string, sel Selection, q AggregateQuery) (*Aggregation, error) {
	if err := sel.validate(); err != nil {
		return nil, fmt.Errorf("aggregate %s: %w", product, err)
	}
	if q.Zone == nil {
		q.Zone = time.UTC
	}
	if q.MaxBuckets <= 0 {
		q.MaxBuckets = 400
	}
	if q.Bucket == "" {
		q.Bucket = "auto"
	}
	if q.Kind == "" {
		q.Kind = "series"
	}
	var out *Aggregation
	err := w.readTx(ctx, func(conn *sql.Conn) error {
		parts, err := resolveSelection(ctx, conn, product, sel)
		if err != nil {
			return err
		}
		storage, err := productTables(ctx, conn, product)
		if err != nil {
			return err
		}
		a := &Aggregation{Kind: q.Kind, X: q.X, Y: q.Y, Agg: q.Agg, Zone: q.Zone.String(), Partitions: len(parts), Buckets: []AggBucket{}}
		for _, p := range parts {
			a.TotalRows += p.rows
		}
		cols := unionSchema(storage)
		switch q.Kind {
		case "series":
			err = aggregateSeries(ctx, conn, parts, storage, cols, q, a)
		case "histogram":
			a.Agg = "count"
			err = aggregateHistogram(ctx, conn, parts, storage, cols, q, a)
		default:
			err = badQuery("kind %q: want series or histogram", q.Kind)
		}
		if err != nil {
			return err
		}
		a.Describe = describeAggregation(a)
		out = a
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("aggregate %s: %w", product, err)
	}
	return out, nil
}

// column finds a column of the product's union schema by name.
func column(cols []unionColumn, name string) (unionColumn, bool) {
	for _, c := range cols {
		if strings.EqualFold(c.name, name) {
			return c, true
		}
	}
	return unionColumn{}, false
}

func columnNames(cols []unionColumn, keep func(sdk.Type) bool) string {
	var ns []string
	for _, c := range cols {
		if keep(c.typ) {
			ns = append(ns, c.name)
		}
	}
	if len(ns) == 0 {
		return "none"
	}
	return strings.Join(ns, ", ")
}

// chartNumeric: the column types a chart adds up (as DOUBLE: a chart is a
// picture, not an exact total).
func chartNumeric(t sdk.Type) bool {
	switch t {
	case sdk.TypeInt64, sdk.TypeFloat64, sdk.TypeUint64, sdk.TypeInt128, sdk.TypeDecimal:
		return true
	}
	return false
}

// timeLike: the column types a series buckets by time.
func timeLike(t sdk.Type) bool {
	return t == sdk.TypeTime || t == sdk.TypeDate || t == sdk.TypeTimestamp
}

// yExpr is the aggregate of a series, as SQL over the window w.
func yExpr(q AggregateQuery, cols []unionColumn) (string, error) {
	if q.Agg == "count" {
		return "count(*)", nil
	}
	switch q.Agg {
	case "sum", "avg", "min", "max":
	default:
		return "", badQuery("agg %q: want sum, avg, min, max or count", q.Agg)
	}
	c, ok := column(cols, q.Y)
	if !ok || !chartNumeric(c.typ) {
		return "", badQuery("y %q: want a numeric column (%s)", q.Y, columnNames(cols, chartNumeric))
	}
	return fmt.Sprintf("%s(CAST(w.%s AS DOUBLE))", q.Agg, quoteIdent(c.name)), nil
}

func aggregateSeries(ctx context.Context, conn *sql.Conn, parts []selectedPartition, storage []storageTable, cols []unionColumn, q AggregateQuery, a *Aggregation) error {
	if !knownBucket(q.Bucket) {
		return badQuery("bucket %q: want auto, none, minute, hour, day, week, month, quarter or year", q.Bucket)
	}
	agg, err := yExpr(q, cols)
	if err != nil {
		return err
	}
	// wall is X as a naive wall time in the zone, the thing buckets cut;
	// it is computed without DuckDB's zone functions (see offsetSpans).
	var wall, from string
	var lo, hi sql.NullTime
	byPartition := strings.EqualFold(q.X, colPartition)
	if byPartition {
		if len(parts) == 0 {
			a.Bucket = q.Bucket
			return nil
		}
		starts := make([]string, len(parts))
		for i, p := range parts {
			starts[i] = fmt.Sprintf("(%d, TIMESTAMP %s)", i, quoteLiteral(p.start.In(q.Zone).Format("2006-01-02 15:04:05.999999")))
		}
		from = "(" + rowsSQL(parts, storage) + ") AS w JOIN (VALUES " + strings.Join(starts, ", ") + ") AS s(ord, pwall) ON w.__strata_ord = s.ord"
		wall = "s.pwall"
		lo = sql.NullTime{Time: parts[0].start, Valid: true}
		hi = sql.NullTime{Time: parts[len(parts)-1].start, Valid: true}
	} else {
		c, ok := column(cols, q.X)
		if !ok || !timeLike(c.typ) {
			return badQuery("x %q: want a time column or %s (time columns: %s)", q.X, colPartition, columnNames(cols, timeLike))
		}
		if len(parts) == 0 {
			a.Bucket = q.Bucket
			return nil
		}
		from = "(" + rowsSQL(parts, storage) + ") AS w"
		x := "w." + quoteIdent(c.name)
		if err := conn.QueryRowContext(ctx, "SELECT min("+x+"), max("+x+") FROM "+from).Scan(&lo, &hi); err != nil {
			return err
		}
		if !lo.Valid {
			a.Bucket = q.Bucket
			a.Skipped = a.TotalRows
			return nil
		}
		if c.typ == sdk.TypeTime {
			wall = wallSQL(x, offsetSpans(lo.Time, hi.Time.Add(time.Second), q.Zone))
		} else {
			// A DATE or naive TIMESTAMP is a wall time already: no zone.
			wall = "CAST(" + x + " AS TIMESTAMP)"
		}
	}
	bucket := q.Bucket
	if bucket == "auto" && byPartition && len(parts) <= q.MaxBuckets {
		bucket = "none" // a point per partition: never finer than the partitioning
	}
	if bucket == "auto" {
		bucket = AutoBucket(lo.Time, hi.Time, q.MaxBuckets)
	}
	a.Bucket = bucket
	var query string
	switch {
	case bucket == "none" && byPartition:
		query = "SELECT w." + colPartition + ", min(s.pwall), " + agg + ", count(*) FROM " + from + " GROUP BY w." + colPartition + " ORDER BY min(w.__strata_ord)"
	case bucket == "none":
		query = "SELECT NULL, min(" + wall + "), " + agg + ", count(*) FROM " + from + " WHERE " + wall + " IS NOT NULL GROUP BY " + wall + " ORDER BY 2"
	default:
		b := "date_trunc(" + quoteLiteral(bucket) + ", " + wall + ")"
		query = "SELECT NULL, " + b + ", " + agg + ", count(*) FROM " + from + " WHERE " + wall + " IS NOT NULL GROUP BY 2 ORDER BY 2"
	}
	rows, err := conn.QueryContext(ctx, query)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var key sql.NullString
		var start sql.NullTime
		var v sql.NullFloat64
		var ab AggBucket
		if err := rows.Scan(&key, &start, &v, &ab.Rows); err != nil {
			return err
		}
		if v.Valid {
			ab.Value = &v.Float64
		}
		ab.Label, ab.Start = wallLabel(start.Time, bucket), wallInstant(start.Time, q.Zone)
		if key.Valid { // a partition: its key
			ab.Label = key.String
		}
		a.Rows += ab.Rows
		a.Buckets = append(a.Buckets, ab)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	a.Skipped = a.TotalRows - a.Rows
	return nil
}

// wallInstant is the instant a wall time (read from DuckDB as a naive
// timestamp, so in UTC fields) is in zone.
func wallInstant(t time.Time, zone *time.Location) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), zone)
}

func wallLabel(t time.Time, bucket string) string {
	switch bucket {
	case "year":
		return t.Format("2006")
	case "quarter":
		return fmt.Sprintf("%d-Q%d", t.Year(), (int(t.Month())-1)/3+1)
	case "month":
		return t.Format("2006-01")
	case "day", "week":
		return t.Format("2006-01-02")
	case "hour", "minute":
		return t.Format("2006-01-02 15:04")
	}
	if t.Nanosecond() != 0 {
		return t.Format("2006-01-02 15:04:05.999999")
	}
	return t.Format("2006-01-02 15:04:05")
}

func aggregateHistogram(ctx context.Context, conn *sql.Conn, parts []selectedPartition, storage []storageTable, cols []unionColumn, q AggregateQuery, a *Aggregation) error {
	c, ok := column(cols, q.Y)
	if !ok || !chartNumeric(c.typ) {
		return badQuery("y %q: a histogram wants a numeric column (%s)", q.Y, columnNames(cols, chartNumeric))
	}
	if q.Bins < 0 || q.Bins > 1000 {
		return badQuery("bins %d: want 0 (auto) to 1000", q.Bins)
	}
	if len(parts) == 0 {
		return nil
	}
	y := "CAST(w." + quoteIdent(c.name) + " AS DOUBLE)"
	from := "(" + rowsSQL(parts, storage) + ") AS w"
	var lo, hi sql.NullFloat64
	var n int64
	if err := conn.QueryRowContext(ctx, "SELECT min("+y+"), max("+y+"), count("+y+") FROM "+from+" WHERE isfinite("+y+")").Scan(&lo, &hi, &n); err != nil {
		return err
	}
	a.Rows, a.Skipped = n, a.TotalRows-n
	if n == 0 {
		return nil
	}
	bins := q.Bins
	if bins == 0 {
		// Sturges' rule, at least 5 and at most 50 bars.
		bins = min(50, max(5, int(math.Ceil(math.Log2(float64(n))))+1))
	}
	width := (hi.Float64 - lo.Float64) / float64(bins)
	if width == 0 {
		bins, width = 1, 1
	}
	a.BinWidth = width
	counts := make([]int64, bins)
	rows, err := conn.QueryContext(ctx, fmt.Sprintf("SELECT least(CAST(floor((%s - %v) / %v) AS BIGINT), %d) AS i, count(*) FROM %s WHERE isfinite(%s) GROUP BY i",
		y, lo.Float64, width, bins-1, from, y))
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var i, k int64
		if err := rows.Scan(&i, &k); err != nil {
			return err
		}
		if i >= 0 && i < int64(bins) {
			counts[i] += k
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for i, k := range counts {
		b0, b1 := lo.Float64+float64(i)*width, lo.Float64+float64(i+1)*width
		v := float64(k)
		a.Buckets = append(a.Buckets, AggBucket{Label: fmt.Sprintf("%s–%s", shortFloat(b0), shortFloat(b1)), Lo: b0, Hi: b1, Value: &v, Rows: k})
	}
	return nil
}

func shortFloat(v float64) string { return fmt.Sprintf("%.4g", v) }

func describeAggregation(a *Aggregation) string {
	rows := comma(a.Rows)
	plural := func(n int, s string) string {
		if n == 1 {
			return "1 " + s
		}
		return fmt.Sprintf("%d %ss", n, s)
	}
	var s string
	switch a.Kind {
	case "histogram":
		s = fmt.Sprintf("rows per range of %s, %s of width %s over %s rows", a.Y, plural(len(a.Buckets), "bin"), shortFloat(a.BinWidth), rows)
	default:
		what := a.Agg + " of " + a.Y
		if a.Agg == "count" {
			what = "rows"
		}
		per := a.Bucket
		if per == "none" {
			per = a.X
		}
		s = fmt.Sprintf("%s per %s, %s over %s rows", what, per, plural(len(a.Buckets), "bucket"), rows)
	}
	if a.Skipped > 0 {
		s += fmt.Sprintf(" (%s rows left out: no value)", comma(a.Skipped))
	}
	return s
}

// comma writes n with thousands separators: 44,000.
func comma(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		return "-" + s
	}
	return s
}

// rowsSQL is the window's rows, unordered (unionSQL without its columns).
func rowsSQL(parts []selectedPartition, storage []storageTable) string {
	q, _ := unionSQL(parts, storage)
	return q
}
