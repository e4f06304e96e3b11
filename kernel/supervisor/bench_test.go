package supervisor

import (
	"context"
	"sort"
	"testing"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
)

// BenchmarkWarmRoundTrip: a trivial block on a warm kernel, request to
// result through the process boundary. Target p50 <= 1 ms.
func BenchmarkWarmRoundTrip(b *testing.B) {
	k, err := Start(context.Background(), testConfig())
	if err != nil {
		b.Fatal(err)
	}
	defer k.Close()
	req := loadReq(`func Load(ctx *sdk.Context) (*sdk.Table, error) { t := sdk.NewTable(sdk.Int64("x")); t.Append(1); return t, nil }`)
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		res, _ := k.Exec(context.Background(), req, nil, &collect{})
		lat = append(lat, time.Since(start))
		if res.Error != nil {
			b.Fatal(res.Error)
		}
	}
	reportPercentiles(b, lat)
}

// BenchmarkKernelStart: process start to ready. Target <= 150 ms.
func BenchmarkKernelStart(b *testing.B) {
	lat := make([]time.Duration, 0, b.N)
	for i := 0; i < b.N; i++ {
		start := time.Now()
		k, err := Start(context.Background(), testConfig())
		if err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
		k.Close()
	}
	reportPercentiles(b, lat)
}

const transformSrc = `package score

import "github.com/stratahq/strata/blocks/sdk"

func Transform(ctx *sdk.Context, in *sdk.Table) (*sdk.Table, error) {
	ids := in.Column("id").Int64s()
	amounts := in.Column("amount").Float64s()
	out := sdk.NewTable(sdk.Int64("id"), sdk.Float64("score"))
	idc, sc := out.Columns()[0], out.Columns()[1]
	idc.Reserve(len(ids))
	sc.Reserve(len(ids))
	for i := 0; i < len(ids); i++ {
		s := amounts[i] * 1.1
		if ids[i]%3 == 0 {
			s = s + 5
		}
		idc.AppendInt64(ids[i])
		sc.AppendFloat64(s)
	}
	return out, nil
}
`

// BenchmarkBoundary100k is the process boundary alone: a Transform that
// returns its input, so 100,000 rows x 2 columns travel to the kernel and
// back (encode, pipe, decode, twice). It is the floor under Transform100k's
// interpreted time.
func BenchmarkBoundary100k(b *testing.B) {
	const src = `package score

import "github.com/stratahq/strata/blocks/sdk"

func Transform(ctx *sdk.Context, in *sdk.Table) (*sdk.Table, error) { return in, nil }
`
	in := transformInput(100_000)
	k, err := Start(context.Background(), testConfig())
	if err != nil {
		b.Fatal(err)
	}
	defer k.Close()
	req := &protocol.ExecRequest{Filename: "identity.go", Source: src, Inputs: []string{"in"}, Timeout: time.Minute}
	for b.Loop() {
		res, out := k.Exec(context.Background(), req, []*sdk.Table{in}, &collect{})
		if res.Error != nil || out.Len() != in.Len() {
			b.Fatal(res.Error)
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()*1000/float64(b.N), "ms/op")
}

// transformSlicesSrc is the same computation written the way the SDK docs
// recommend for hot loops: plain slices in the loop, columns built once.
const transformSlicesSrc = `package score

import "github.com/stratahq/strata/blocks/sdk"

func Transform(ctx *sdk.Context, in *sdk.Table) (*sdk.Table, error) {
	ids := in.Column("id").Int64s()
	amounts := in.Column("amount").Float64s()
	scores := make([]float64, len(ids))
	for i := 0; i < len(ids); i++ {
		s := amounts[i] * 1.1
		if ids[i]%3 == 0 {
			s = s + 5
		}
		scores[i] = s
	}
	out := sdk.NewTable()
	out.AddColumn(sdk.Int64sFrom("id", ids, nil))
	out.AddColumn(sdk.Float64sFrom("score", scores, nil))
	return out, nil
}
`

func nativeTransformSlices(ctx *sdk.Context, in *sdk.Table) (*sdk.Table, error) {
	ids := in.Column("id").Int64s()
	amounts := in.Column("amount").Float64s()
	scores := make([]float64, len(ids))
	for i := 0; i < len(ids); i++ {
		s := amounts[i] * 1.1
		if ids[i]%3 == 0 {
			s = s + 5
		}
		scores[i] = s
	}
	out := sdk.NewTable()
	out.AddColumn(sdk.Int64sFrom("id", ids, nil))
	out.AddColumn(sdk.Float64sFrom("score", scores, nil))
	return out, nil
}

// nativeTransform is transformSrc compiled by Go: the baseline.
func nativeTransform(ctx *sdk.Context, in *sdk.Table) (*sdk.Table, error) {
	ids := in.Column("id").Int64s()
	amounts := in.Column("amount").Float64s()
	out := sdk.NewTable(sdk.Int64("id"), sdk.Float64("score"))
	idc, sc := out.Columns()[0], out.Columns()[1]
	idc.Reserve(len(ids))
	sc.Reserve(len(ids))
	for i := 0; i < len(ids); i++ {
		s := amounts[i] * 1.1
		if ids[i]%3 == 0 {
			s = s + 5
		}
		idc.AppendInt64(ids[i])
		sc.AppendFloat64(s)
	}
	return out, nil
}

func transformInput(n int) *sdk.Table {
	ids := make([]int64, n)
	amounts := make([]float64, n)
	for i := range ids {
		ids[i], amounts[i] = int64(i), float64(i%97)
	}
	t := sdk.NewTable()
	t.AddColumn(sdk.Int64sFrom("id", ids, nil))
	t.AddColumn(sdk.Float64sFrom("amount", amounts, nil))
	return t
}

// BenchmarkTransform100k compares a Transform over 100,000 rows in the
// interpreter (through the kernel process, encoding included) with the same
// function compiled natively, in the same run, and reports the ratio
// (target <= 10x): once appending row by row through SDK methods, once
// computing into slices and building the columns at the end.
func BenchmarkTransform100k(b *testing.B) {
	for _, c := range []struct {
		name   string
		src    string
		native func(*sdk.Context, *sdk.Table) (*sdk.Table, error)
	}{
		{"append", transformSrc, nativeTransform},
		{"slices", transformSlicesSrc, nativeTransformSlices},
	} {
		b.Run(c.name, func(b *testing.B) { benchTransform(b, c.src, c.native) })
	}
}

func benchTransform(b *testing.B, src string, native func(*sdk.Context, *sdk.Table) (*sdk.Table, error)) {
	in := transformInput(100_000)
	k, err := Start(context.Background(), testConfig())
	if err != nil {
		b.Fatal(err)
	}
	defer k.Close()
	req := &protocol.ExecRequest{Filename: "score.go", Source: src, Inputs: []string{"in"}, Timeout: time.Minute}
	if res, _ := k.Exec(context.Background(), req, []*sdk.Table{in}, &collect{}); res.Error != nil {
		b.Fatal(res.Error)
	}
	ctx := sdk.NewContext(context.Background(), sdk.ContextConfig{})
	var nat, interp time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		if _, err := native(ctx, in); err != nil {
			b.Fatal(err)
		}
		nat += time.Since(start)
		start = time.Now()
		res, out := k.Exec(context.Background(), req, []*sdk.Table{in}, &collect{})
		interp += time.Since(start)
		if res.Error != nil || out.Len() != in.Len() {
			b.Fatal(res.Error)
		}
	}
	b.ReportMetric(float64(nat.Microseconds())/float64(b.N)/1000, "native-ms")
	b.ReportMetric(float64(interp.Microseconds())/float64(b.N)/1000, "interp-ms")
	b.ReportMetric(float64(interp)/float64(nat), "ratio")
}

func reportPercentiles(b *testing.B, lat []time.Duration) {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	p := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))].Microseconds()) / 1000 }
	b.ReportMetric(p(0.50), "p50-ms")
	b.ReportMetric(p(0.99), "p99-ms")
}
