package parquet

import (
	"fmt"
	"github.com/sweep-sched/sweep/store"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// benchJobs is the jobs table of issue 4.
var benchJobs = store.Schema{Table: "jobs", Columns: []store.Column{
	{Name: "cell_id", Type: store.TypeString},
	{Name: "job", Type: store.TypeInt64},
	{Name: "arrival", Type: store.TypeInt64},
	{Name: "start", Type: store.TypeInt64},
	{Name: "finish", Type: store.TypeInt64},
	{Name: "volume", Type: store.TypeInt64},
	{Name: "critical_path", Type: store.TypeInt64},
	{Name: "slr", Type: store.TypeFloat64},
	{Name: "stretch", Type: store.TypeFloat64},
	{Name: "speedup", Type: store.TypeFloat64},
	{Name: "tasks", Type: store.TypeInt64},
}}

// benchCell fills rows with the 10,000 job rows of one cell with plausible magnitudes:
// arrivals every ~40 ticks, critical paths up to 10^4 ticks, waits up to
// 10^5, so the float metrics have full-entropy mantissas as real ones do.
func benchCell(rng *rand.Rand, id string, rows []store.Row) {
	arrival := int64(0)
	for i := range rows {
		arrival += rng.Int64N(80)
		cp := 1 + rng.Int64N(10_000)
		tasks := 1 + rng.Int64N(100)
		volume := cp * (1 + rng.Int64N(tasks))
		start := arrival + rng.Int64N(100_000)
		finish := start + cp + rng.Int64N(cp)
		rows[i] = append(rows[i][:0], store.String(id), store.Int64(int64(i)), store.Int64(arrival), store.Int64(start), store.Int64(finish), store.Int64(volume), store.Int64(cp),
			store.Float64(float64(finish-arrival)/float64(cp)), store.Float64(float64(finish-arrival)/float64(volume)),
			store.Float64(float64(volume)/float64(finish-start)), store.Int64(tasks))
	}
}

// BenchmarkJobsMillion writes 1,000,000 job rows (100 cells of 10,000) into
// four parts, as a runner flushing every 25 cells would, and reports time
// and disk bytes per row and the peak live heap.
func BenchmarkJobsMillion(b *testing.B) {
	const cells, flushEvery = 100, 25
	rng := rand.New(rand.NewPCG(4, 2013))
	rows := make([]store.Row, 10_000)
	totalRows := cells * len(rows)
	var diskBytes int64
	var peakHeap uint64
	var ms runtime.MemStats
	runtime.GC()
	for n := range b.N {
		dir := b.TempDir()
		w, err := NewPartWriter(dir, benchJobs, WriterOptions{Tag: fmt.Sprintf("bench%d", n)})
		if err != nil {
			b.Fatal(err)
		}
		for c := range cells {
			// Fresh values per cell, or dictionary encoding would find the
			// repeats and flatter the disk size.
			b.StopTimer()
			benchCell(rng, fmt.Sprintf("burkimsher2013/log-independent/i%02d/load1.0/pslr", c), rows)
			b.StartTimer()
			for i := range rows {
				if err := w.Append(rows[i]); err != nil {
					b.Fatal(err)
				}
			}
			// Sampling stops the world; once per cell costs <0.1%.
			runtime.ReadMemStats(&ms)
			peakHeap = max(peakHeap, ms.HeapAlloc)
			if (c+1)%flushEvery == 0 {
				if _, err := w.Flush(); err != nil {
					b.Fatal(err)
				}
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		diskBytes = dirBytes(b, filepath.Join(dir, "jobs"))
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*totalRows), "ns/row")
	b.ReportMetric(float64(diskBytes)/float64(totalRows), "disk-B/row")
	b.ReportMetric(float64(peakHeap)/(1<<20), "peak-heap-MiB")
}

func dirBytes(b *testing.B, dir string) int64 {
	entries, err := os.ReadDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	var total int64
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			b.Fatal(err)
		}
		total += info.Size()
	}
	return total
}

// benchCells is a cells table of one column, the parent of benchJobs.
var benchCells = store.Schema{Table: "cells", Columns: []store.Column{{Name: "cell_id", Type: store.TypeString}}}

// BenchmarkCellJobsMillion writes the same 1,000,000 job rows as
// BenchmarkJobsMillion the way the runner does: a cell's job rows at once
// through a CellWriter, flushing every 25 cells.
func BenchmarkCellJobsMillion(b *testing.B) {
	const cells, flushEvery = 100, 25
	rng := rand.New(rand.NewPCG(4, 2013))
	rows := make([]store.Row, 10_000)
	for n := range b.N {
		w, err := NewCellWriter(b.TempDir(), benchCells, []store.Schema{benchJobs}, WriterOptions{Tag: fmt.Sprintf("bench%d", n)}, FlushPolicy{Cells: flushEvery})
		if err != nil {
			b.Fatal(err)
		}
		for c := range cells {
			b.StopTimer()
			id := fmt.Sprintf("burkimsher2013/log-independent/i%02d/load1.0/pslr", c)
			benchCell(rng, id, rows)
			b.StartTimer()
			if err := w.Append(store.Row{store.String(id)}, rows); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*cells*len(rows)), "ns/row")
}
