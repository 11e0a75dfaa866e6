package parquet

import (
	"errors"
	"fmt"
	"github.com/sweep-sched/sweep/store"
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
	// JobRows is the most rows of any child table held before a flush; it
	// bounds the size of a child part, not memory, which RowGroupRows
	// bounds.
	JobRows int
	// Interval is the longest time since the last flush before the next.
	Interval time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// CellWriter writes the cells table of a sweep and its child tables (such
// as jobs: rows that belong to a cell). Its unit is a cell: Append takes a
// cell's row together with its child rows. A flush publishes every child
// part first and then the cells part, all named part-<tag>-<seq>.parquet,
// so a cell row is never on disk before its child rows; a child part
// without its cells part is the trace of a kill in between and is reported
// by Orphans. A CellWriter is safe for concurrent use.
type CellWriter struct {
	mu        sync.Mutex
	dir       string
	unique    *uniqueState // nil without WriterOptions.Unique
	cells     *PartWriter
	children  []*PartWriter
	policy    FlushPolicy
	lastFlush time.Time
	err       error // sticky: once a flush failed, nothing more is published
	closed    bool
}

// NewCellWriter prepares writers for the cells table and each child table,
// all under dir with the same options.
func NewCellWriter(dir string, cells store.Schema, children []store.Schema, opts WriterOptions, policy FlushPolicy) (*CellWriter, error) {
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
	tables := map[string]bool{cells.Table: true}
	for _, c := range children {
		if tables[c.Table] {
			return nil, fmt.Errorf("store: two schemas name table %q; every table needs its own", c.Table)
		}
		tables[c.Table] = true
	}
	w := &CellWriter{dir: dir, policy: policy, lastFlush: policy.Now()}
	var err error
	if opts.Unique != nil {
		if w.unique, err = newUniqueState(dir, cells, children, *opts.Unique, opts.Tag, opts.Group); err != nil {
			return nil, err
		}
	}
	if w.cells, err = NewPartWriter(dir, cells, opts); err != nil {
		return nil, err
	}
	for _, c := range children {
		pw, err := NewPartWriter(dir, c, opts)
		if err != nil {
			w.closeAll()
			return nil, err
		}
		w.children = append(w.children, pw)
	}
	return w, nil
}

// Append adds one cell's row and its child rows (children[i] for the i-th
// child table; missing trailing entries mean no rows), then flushes if the
// policy says so. It changes nothing when any row does not fit its schema.
func (w *CellWriter) Append(cell store.Row, children ...[]store.Row) error {
	c := make([]store.Child, len(children))
	for i, rows := range children {
		c[i].Rows = rows
	}
	return w.AppendCell(cell, c...)
}

// AppendCell is Append with each child table's rows as rows or columns.
func (w *CellWriter) AppendCell(cell store.Row, children ...store.Child) error {
	if err := w.cells.schema.CheckRow(cell); err != nil {
		return err
	}
	if len(children) > len(w.children) {
		return fmt.Errorf("store: rows for %d child tables, the writer has %d", len(children), len(w.children))
	}
	for t, c := range children {
		schema := w.children[t].schema
		if c.Columns != nil {
			if c.Rows != nil {
				return fmt.Errorf("store: %s: a child holds both rows and columns; give one", schema.Table)
			}
			if err := schema.CheckColumns(c.Columns); err != nil {
				return err
			}
		}
		for i, row := range c.Rows {
			if err := schema.CheckRow(row); err != nil {
				return fmt.Errorf("%w (%s row %d)", err, schema.Table, i)
			}
		}
	}

	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.usable(); err != nil {
		return err
	}
	for t, c := range children {
		var err error
		if c.Columns != nil {
			err = w.children[t].appendColumnBatch(c.Columns)
		} else {
			err = w.children[t].appendBatch(c.Rows)
		}
		if err != nil {
			return w.failLocked(err)
		}
	}
	w.cells.appendChecked(cell)
	if w.unique != nil {
		w.unique.note(cell)
	}
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
	// closing cannot publish cells whose child rows were lost.
	closeErr := w.closeAll()
	if err != nil {
		return err
	}
	return closeErr
}

func (w *CellWriter) closeAll() error {
	err := w.cells.Close()
	for _, c := range w.children {
		err = errors.Join(c.Close(), err)
	}
	return err
}

func (w *CellWriter) usable() error {
	if w.closed {
		return fmt.Errorf("store: CellWriter used after Close")
	}
	return w.err
}

func (w *CellWriter) maybeFlushLocked() error {
	childRows := 0
	for _, c := range w.children {
		childRows = max(childRows, c.Pending())
	}
	cells := w.cells.Pending()
	due := cells >= w.policy.Cells || childRows >= w.policy.JobRows ||
		cells+childRows > 0 && w.policy.Now().Sub(w.lastFlush) >= w.policy.Interval
	if !due {
		return nil
	}
	return w.flushLocked()
}

// flushLocked publishes the child tables before cells; if a child part
// fails, the cells are discarded unpublished.
func (w *CellWriter) flushLocked() error {
	if w.unique != nil {
		return w.flushUniqueLocked()
	}
	for _, c := range w.children {
		if _, err := c.Flush(); err != nil {
			return w.failLocked(err)
		}
	}
	if _, err := w.cells.Flush(); err != nil {
		return w.failLocked(err)
	}
	w.lastFlush = w.policy.Now()
	return nil
}

// failLocked makes err sticky and discards every table's unpublished rows.
func (w *CellWriter) failLocked(err error) error {
	for _, pw := range append([]*PartWriter{w.cells}, w.children...) {
		if pw.err == nil {
			pw.err = err
			pw.discard()
		}
	}
	if w.unique != nil {
		w.unique.forgetPending()
	}
	if w.err == nil {
		w.err = err
	}
	return w.err
}
