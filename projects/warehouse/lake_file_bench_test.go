package warehouse

import (
	"context"
	"fmt"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// BenchmarkLakeCommitPerPartition measures the coordinator's side of a
// publish on a DuckLake (file catalog): the process CPU (user+system) per
// partition of committing outputs of 2,000 rows (and 100,000), as rows it
// writes itself ("rows") or as files workers wrote ("files": registered),
// with 1, 8 and 32 partitions per transaction (what the group commit
// gathers when that many publishes wait). The workers' side (WriteLakeFile) is outside the
// measure. Reported: cpu-ms/partition.
func BenchmarkLakeCommitPerPartition(b *testing.B) {
	ctx := context.Background()
	for _, c := range []struct{ rows, group int }{{2000, 1}, {2000, 8}, {2000, 32}, {20_000, 8}, {100_000, 8}} {
		for _, how := range []string{"rows", "files"} {
			rows, group := c.rows, c.group
			b.Run(fmt.Sprintf("rows-%d/group-%d/%s", rows, group, how), func(b *testing.B) {
				dir := b.TempDir()
				lake := fileLake(b, dir)
				lake.FileMinRows = 1
				wh, err := Open(ctx, filepath.Join(dir, "w.duckdb"), Options{Lake: lake})
				if err != nil {
					b.Fatal(err)
				}
				defer wh.Close()
				tbl := bigTable(rows, 1, false)
				day0 := day("2020-01-01")
				var cpu time.Duration
				parts := 0
				b.ResetTimer()
				for i := range b.N {
					b.StopTimer()
					outs := make([]Output, group)
					for j := range group {
						key := day0.AddDate(0, 0, i*group+j).Format(time.DateOnly)
						outs[j] = out("facts", key, tbl)
						if how == "files" {
							s, _ := wh.FileSink("facts", key, 0)
							f, err := WriteLakeFile(ctx, s, tbl)
							if err != nil {
								b.Fatal(err)
							}
							outs[j] = writtenOut("facts", key, f)
						}
					}
					c0 := processCPU()
					b.StartTimer()
					if _, err := wh.Publish(ctx, outs); err != nil {
						b.Fatal(err)
					}
					b.StopTimer()
					cpu += processCPU() - c0
					parts += group
				}
				b.ReportMetric(float64(cpu.Microseconds())/1000/float64(parts), "cpu-ms/partition")
				if how == "files" {
					if added, copied := wh.FileCommits(); copied != 0 || added != int64(parts) {
						b.Fatalf("files registered %d, copied %d of %d", added, copied, parts)
					}
				}
			})
		}
	}
}

// processCPU is this process's user+system CPU time so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
