package store

import (
	"errors"
	"fmt"
	"sync"
	"time"
)

// Defaults of FlushPolicy's zero fields.
const (
	DefaultFlushCells    = 500
	DefaultFlushJobRows  = 2 << 20
	DefaultFlushInterval = 5 * time.Second
)

// FlushPolicy says when a CellWriter publishes what it holds. A flush
// happens in Append or MaybeFlush as soon as any limit is reached; zero
// fields take the defaults above.
type FlushPolicy struct {
	// Cells is the most cell rows held before a flush.
	Cells int
	// JobRows is the most job rows held before a flush; it bounds the
	// size of a jobs part, not memory, which RowGroupRows bounds.
	JobRows int
	// Interval is the longest time since the last flush before the next.
	Interval time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// CellWriter writes the cells table and, optionally, the jobs table of a
// sweep. Its unit is a cell: Append takes a cell's row together with its
// job rows. A flush publishes the jobs part first and then the cells part,
// both named part-<tag>-<seq>.parquet, so a cell row is never on disk
// before its job rows; a jobs part without its cells part is the trace of
// a kill between the two and is reported by Orphans. A CellWriter is safe
// for concurrent use.
type CellWriter struct {
	mu        sync.Mutex
	cells     *PartWriter
	jobs      *PartWriter // nil when job rows are not recorded
	policy    FlushPolicy
	lastFlush time.Time
	err       error // sticky: once a flush failed, nothing more is published
	closed    bool
}

// NewCellWriter prepares writers for the cells table and, unless jobs is
// nil, the jobs table, both under dir with the same options.
func NewCellWriter(dir string, cells Schema, jobs *Schema, opts WriterOptions, policy FlushPolicy) (*CellWriter, error) {
	if policy.Cells < 0 || policy.JobRows < 0 || policy.Interval < 0 {
		return nil, fmt.Errorf("store: flush policy %+v has a negative limit; use 0 for the default", policy)
	}
	if policy.Cells == 0 {
		policy.Cells = DefaultFlushCells
	}
	if policy.JobRows == 0 {
		policy.JobRows = DefaultFlushJobRows
	}
	if policy.Interval == 0 {
		policy.Interval = DefaultFlushInterval
	}
	if policy.Now == nil {
		policy.Now = time.Now
	}
	if jobs != nil && jobs.Table == cells.Table {
		return nil, fmt.Errorf("store: cells and jobs schemas both name table %q; they need separate tables", cells.Table)
	}
	w := &CellWriter{policy: policy, lastFlush: policy.Now()}
	var err error
	if w.cells, err = NewPartWriter(dir, cells, opts); err != nil {
		return nil, err
	}
	if jobs != nil {
		if w.jobs, err = NewPartWriter(dir, *jobs, opts); err != nil {
			w.cells.Close()
			return nil, err
		}
	}
	return w, nil
}

// Append adds one cell's row and its job rows, then flushes if the policy
// says so. It changes nothing when any row does not fit its schema.
func (w *CellWriter) Append(cell Row, jobs []Row) error {
	if err := w.cells.schema.checkRow(cell); err != nil {
		return err
	}
	if w.jobs == nil && len(jobs) > 0 {
		return fmt.Errorf("store: %d job rows for a writer without a jobs table", len(jobs))
	}
	for i, job := range jobs {
		if err := w.jobs.schema.checkRow(job); err != nil {
			return fmt.Errorf("%w (job row %d)", err, i)
		}
	}

	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.usable(); err != nil {
		return err
	}
	for _, job := range jobs {
		w.jobs.appendChecked(job)
		if err := w.jobs.maybeWriteGroup(); err != nil {
			return w.failLocked(err)
		}
	}
	w.cells.appendChecked(cell)
	if err := w.cells.maybeWriteGroup(); err != nil {
		return w.failLocked(err)
	}
	return w.maybeFlushLocked()
}

// MaybeFlush flushes if the policy's interval has passed since the last
// flush and rows are waiting. Call it from a timer when cells can take
// longer than the interval.
func (w *CellWriter) MaybeFlush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.usable(); err != nil {
		return err
	}
	return w.maybeFlushLocked()
}

// Flush publishes everything appended so far.
func (w *CellWriter) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.usable(); err != nil {
		return err
	}
	return w.flushLocked()
}

// Close flushes and releases the writer, returning the first error met.
// Closing twice is a no-op.
func (w *CellWriter) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil
	}
	var err error
	if w.err == nil {
		err = w.flushLocked()
	} else {
		err = w.err
	}
	w.closed = true
	// After a failure the cells writer already discarded its rows, so
	// closing cannot publish cells whose jobs were lost.
	closeErr := w.cells.Close()
	if w.jobs != nil {
		closeErr = errors.Join(w.jobs.Close(), closeErr)
	}
	if err != nil {
		return err
	}
	return closeErr
}

func (w *CellWriter) usable() error {
	if w.closed {
		return fmt.Errorf("store: CellWriter used after Close")
	}
	return w.err
}

func (w *CellWriter) maybeFlushLocked() error {
	jobRows := 0
	if w.jobs != nil {
		jobRows = w.jobs.Pending()
	}
	cells := w.cells.Pending()
	due := cells >= w.policy.Cells || jobRows >= w.policy.JobRows ||
		cells+jobRows > 0 && w.policy.Now().Sub(w.lastFlush) >= w.policy.Interval
	if !due {
		return nil
	}
	return w.flushLocked()
}

// flushLocked publishes jobs before cells; if the jobs part fails, the
// cells are discarded unpublished.
func (w *CellWriter) flushLocked() error {
	if w.jobs != nil {
		if _, err := w.jobs.Flush(); err != nil {
			return w.failLocked(err)
		}
	}
	if _, err := w.cells.Flush(); err != nil {
		return w.failLocked(err)
	}
	w.lastFlush = w.policy.Now()
	return nil
}

// failLocked makes err sticky and discards both tables' unpublished rows.
func (w *CellWriter) failLocked(err error) error {
	for _, pw := range []*PartWriter{w.jobs, w.cells} {
		if pw != nil && pw.err == nil {
			pw.err = err
			pw.discard()
		}
	}
	if w.err == nil {
		w.err = err
	}
	return w.err
}
