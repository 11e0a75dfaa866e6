package sweep

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

// A writerPool gives each worker a CellWriter of its own for as long as it
// hands over one cell's rows. A single shared writer serialised the
// workers: encoding a 10,000-job cell's rows under its lock took about as
// long as simulating the cell. Each writer publishes its own part files,
// under its own tag, with the durability protocol of package store, as
// shards of one run do; readers take every part of a table.
type writerPool struct {
	all  []*parquet.CellWriter
	free chan *parquet.CellWriter
}

// writerTags are the tags of a run's n writers, label-wNN: its session
// names them, so that the temporary files of a killed run are known as
// its own.
func writerTags(n int, label string, start time.Time) ([]string, error) {
	tags := make([]string, n)
	for i := range tags {
		var err error
		if tags[i], err = parquet.NewTag(fmt.Sprintf("%s-w%02d", label, i+1), start); err != nil {
			return nil, err
		}
	}
	return tags, nil
}

// newWriterPool makes a writer per tag into out, with the same schemas,
// metadata and flush policy.
func newWriterPool(tags []string, out string, cells store.Schema, children []store.Schema, meta map[string]string, flush parquet.FlushPolicy) (*writerPool, error) {
	p := &writerPool{free: make(chan *parquet.CellWriter, len(tags))}
	// The unique key keeps two processes of one shard (a requeued array
	// task and its first run) from publishing a cell twice. The writers
	// of this process are a group: a cell goes to one of them only.
	unique := &parquet.UniqueKey{Column: table.CellID, Status: table.Status, Settled: table.StatusOK}
	group := parquet.NewWriterGroup(tags)
	for _, tag := range tags {
		w, err := parquet.NewCellWriter(out, cells, children, parquet.WriterOptions{Tag: tag, Metadata: meta, Unique: unique, Group: group}, flush)
		if err != nil {
			p.close()
			return nil, err
		}
		p.all = append(p.all, w)
		p.free <- w
	}
	return p, nil
}

// append writes one cell's rows with a writer no other worker holds.
func (p *writerPool) append(cell store.Row, children ...store.Child) error {
	w := <-p.free
	defer func() { p.free <- w }()
	return w.AppendCell(cell, children...)
}

// maybeFlush lets the idle writers publish what waited longer than their
// interval; a flush error is sticky in its writer and surfaces at close.
// It takes each writer out of the pool while it flushes, so no worker
// waits on a writer that is flushing here: a worker takes another, and a
// writer in a worker's hands flushes in its Append when due.
func (p *writerPool) maybeFlush() {
	for range p.all {
		select {
		case w := <-p.free:
			_ = w.MaybeFlush()
			p.free <- w
		default:
			return // every writer is busy
		}
	}
}

// close flushes and closes every writer at once, returning every error
// met. Nothing else runs then: closing one writer after the other made
// the last flushes (encoding, fsync) serial time of the run.
func (p *writerPool) close() error {
	errs := make([]error, len(p.all))
	var wg sync.WaitGroup
	for i, w := range p.all {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = w.Close()
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}
