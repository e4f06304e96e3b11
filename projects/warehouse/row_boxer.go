package warehouse

import (
	"database/sql/driver"
	"sync"
)

// boxBatchRows is how many rows the boxer converts per batch: one DuckDB
// data chunk.
const boxBatchRows = 2048

// rowBoxer converts table rows to driver values (boxing every value, which
// allocates) on its own goroutine, in batches, so that this work overlaps the
// appender's on the caller's goroutine. Measured on 1M rows x 4 columns it
// takes about 15% off a publish. Batches are recycled through free, so at
// most a few are alive at a time.
type rowBoxer struct {
	out  chan []driver.Value // filled batches, closed after the last one
	free chan []driver.Value // batches to reuse
	done chan struct{}       // closed by stop
	wg   sync.WaitGroup
}

const boxerBuffers = 4

func startBoxer(getters []func(int) driver.Value, n int) *rowBoxer {
	b := &rowBoxer{
		out:  make(chan []driver.Value, boxerBuffers),
		free: make(chan []driver.Value, boxerBuffers),
		done: make(chan struct{}),
	}
	size := min(n, boxBatchRows) * len(getters)
	for range boxerBuffers {
		b.free <- make([]driver.Value, size)
	}
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		defer close(b.out)
		for start := 0; start < n; start += boxBatchRows {
			var buf []driver.Value
			select {
			case buf = <-b.free:
			case <-b.done:
				return
			}
			k := 0
			for i := start; i < min(start+boxBatchRows, n); i++ {
				for _, get := range getters {
					buf[k] = get(i)
					k++
				}
			}
			select {
			case b.out <- buf[:k]:
			case <-b.done:
				return
			}
		}
	}()
	return b
}

// recycle hands a consumed batch back; free has room for every batch, so it
// never blocks.
func (b *rowBoxer) recycle(batch []driver.Value) { b.free <- batch[:cap(batch)] }

// stop ends the goroutine (early on error) and waits for it.
func (b *rowBoxer) stop() {
	close(b.done)
	b.wg.Wait()
}
