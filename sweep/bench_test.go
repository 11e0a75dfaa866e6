package sweep

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/parquet"
)

// largestCell is seed 004's largest kind of cell: a 10,000-job
// log-independent instance at load 1.2 on the paper's grid, with job rows.
const largestCell = `experiment: bench
seed: 1
platform: burkimsher2013
workloads:
  - {generator: burkimsher2013/log-independent, instances: 1}
loads: [1.2]
policies: [pslr]
record: {jobs: true}
`

// BenchmarkCellPath measures one worker's path for the largest cells: the
// cell's computation (simulation, measures, rows), the hand-over of its
// rows to a writer (encoding into Parquet builders, row groups and
// flushes, all in the worker's own writer), and the serialised part, the
// only time a worker can wait for another: taking a writer from the pool
// and giving it back. It reports each per cell and serial-% = the
// serialised part's share of the cell's whole path, the s of Amdahl's
// law. With one shared writer, as before, the hand-over was serialised
// too: write-% is what the serial share was then.
func BenchmarkCellPath(b *testing.B) {
	m, err := ParseManifest([]byte(largestCell), "bench.yaml")
	if err != nil {
		b.Fatal(err)
	}
	c, lay := preparedTask(b, m)
	tags, err := writerTags(1, "bench", time.Now())
	if err != nil {
		b.Fatal(err)
	}
	pool, err := newWriterPool(tags, b.TempDir(), m.CellsSchema(), m.childSchemas(), nil, parquet.FlushPolicy{})
	if err != nil {
		b.Fatal(err)
	}
	defer pool.close()
	var compute, write, serial time.Duration
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		row, children, err := runCell(context.Background(), m, lay, c, nil)
		if err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		w := <-pool.free
		t2 := time.Now()
		if err := w.AppendCell(row, children...); err != nil {
			b.Fatal(err)
		}
		t3 := time.Now()
		pool.free <- w
		t4 := time.Now()
		compute += t1.Sub(t0)
		write += t3.Sub(t2)
		serial += t2.Sub(t1) + t4.Sub(t3)
	}
	total := compute + write + serial
	n := float64(b.N)
	b.ReportMetric(compute.Seconds()*1e3/n, "cell-ms")
	b.ReportMetric(write.Seconds()*1e3/n, "write-ms")
	b.ReportMetric(100*write.Seconds()/total.Seconds(), "write-%")
	b.ReportMetric(100*serial.Seconds()/total.Seconds(), "serial-%")
}

// BenchmarkPoolClose measures what a run does before its first cell and
// after its last: opening the writer pool, one writer per worker
// (open-ms), and closing it, each writer publishing its last parts (the
// largest cell's rows, under a cell id of its own) through the
// directory's publish lock (close-ms). Nothing else runs then, so both are
// serial time of the run however many cores, and they grow with the
// workers.
func BenchmarkPoolClose(b *testing.B) {
	for _, workers := range []int{2, 16, 64} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			m, err := ParseManifest([]byte(largestCell), "bench.yaml")
			if err != nil {
				b.Fatal(err)
			}
			c, lay := preparedTask(b, m)
			row, children, err := runCell(context.Background(), m, lay, c, nil)
			if err != nil {
				b.Fatal(err)
			}
			var opening, closing time.Duration
			for range b.N {
				t0 := time.Now()
				tags, err := writerTags(workers, "bench", time.Now())
				if err != nil {
					b.Fatal(err)
				}
				pool, err := newWriterPool(tags, b.TempDir(), m.CellsSchema(), m.childSchemas(), nil, parquet.FlushPolicy{})
				if err != nil {
					b.Fatal(err)
				}
				opening += time.Since(t0)
				for i := range workers {
					if err := pool.all[i].AppendCell(withCellID(row, i), withCellIDs(children, i)...); err != nil {
						b.Fatal(err)
					}
				}
				t1 := time.Now()
				if err := pool.close(); err != nil {
					b.Fatal(err)
				}
				closing += time.Since(t1)
			}
			b.ReportMetric(opening.Seconds()*1e3/float64(b.N), "open-ms")
			b.ReportMetric(closing.Seconds()*1e3/float64(b.N), "close-ms")
		})
	}
}

// preparedTask returns the manifest's first cell with its instance
// prepared, as a worker gets it, and the run's row layout.
func preparedTask(b *testing.B, m *Manifest) (task, *rowLayout) {
	d := newDispatcher(m.Cells()[:1], m.prepare)
	t, ok := d.Next(context.Background())
	if !ok {
		b.Fatal("no cell to prepare")
	}
	if t.inst.err != nil {
		b.Fatalf("preparing %s: %v", t.Name(), t.inst.err)
	}
	t.PrepareTime = 0
	return t, newRowLayout(m)
}

// withCellID returns a copy of row whose first column, the cell id, names
// cell i.
func withCellID(row store.Row, i int) store.Row {
	out := slices.Clone(row)
	out[0] = store.String(fmt.Sprint("cell", i))
	return out
}

func withCellIDs(tables []store.Child, i int) []store.Child {
	out := make([]store.Child, len(tables))
	for t, rows := range tables {
		for r := range rows.Len() {
			out[t].Rows = append(out[t].Rows, withCellID(rows.Row(r), i))
		}
	}
	return out
}
