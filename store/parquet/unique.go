package parquet

import (
	"fmt"
	"github.com/sweep-sched/sweep/store"
	"os"
	"path/filepath"
	"sync"
)

// publishLockName is the file in a results directory whose lock every
// CellWriter with a UniqueKey holds while it publishes.
const publishLockName = ".publish.lock"

// UniqueKey makes a CellWriter publish no duplicate of a cell that another
// writer of the same directory has published, as when two processes run
// the same shard at once (a requeued Slurm array task whose first run is
// still finishing). Both may compute the same cells; each writer's flush
// takes an exclusive lock on DIR/.publish.lock, reads the cells parts that
// other writers published since its last flush, drops from its own parts
// the cells settled there (and their child rows), and publishes the rest
// before it lets go of the lock. So every key has at most one settled row
// in the cells table, and its child rows come from that row's writer.
//
// A pending row is dropped when the table holds a settled row of its key,
// or when it is not settled and another writer published any row of its
// key after this writer started. A not-settled row published before the
// writer started (an old failure being retried) does not block a new row.
//
// The lock is flock(2), which local file systems, NFSv4 and the cluster
// file systems that enable it (Lustre's flock mount option, GPFS,
// BeeGFS with global locks) honour across hosts.
type UniqueKey struct {
	// Column holds the key in the cells table and in every child table,
	// e.g. "cell_id".
	Column string
	// Status is the cells table's status column, e.g. "status".
	Status string
	// Settled is the status of a row that settles its key, e.g. "ok".
	Settled string
}

// A WriterGroup is a set of CellWriters of one process, named by their
// tags, that never append the same key, such as the workers of one run,
// which share its cells out. Between themselves they need no duplicate
// check: a writer of the group does not read the others' parts, and they
// publish at the same time, holding the directory's publish lock together
// against other processes. Without a group, each of n writers read the
// parts of the n-1 others at every flush, one writer at a time, and
// closing 64 of them took seconds (BenchmarkPoolClose in package sweep).
type WriterGroup struct {
	tags map[string]bool

	mu      sync.Mutex
	holders int    // writers of the group publishing now
	unlock  func() // releases the publish lock the holders share
}

// NewWriterGroup returns the group of the writers tagged tags.
func NewWriterGroup(tags []string) *WriterGroup {
	g := &WriterGroup{tags: map[string]bool{}}
	for _, t := range tags {
		g.tags[t] = true
	}
	return g
}

// lock takes the publish lock at path for one writer of the group: the
// first to arrive takes the file lock, which stays held until the last
// one leaves, so a check and a publish of one writer still run with no
// other process publishing in between. Another process waits for a
// moment when none of the group publishes; each writer publishes for
// milliseconds every few seconds (FlushPolicy), so such moments come.
func (g *WriterGroup) lock(path string) (func(), error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.holders == 0 {
		unlock, err := lockFile(path)
		if err != nil {
			return nil, err
		}
		g.unlock = unlock
	}
	g.holders++
	return func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		g.holders--
		if g.holders == 0 {
			g.unlock()
			g.unlock = nil
		}
	}, nil
}

// uniqueState is a CellWriter's view of the keys other writers published.
type uniqueState struct {
	key                   UniqueKey
	keyIndex, statusIndex int             // in the cells schema
	baseline              map[string]bool // cells parts present when the writer started
	read                  map[string]bool // cells parts already read
	settled               map[string]bool // keys with a settled row
	recent                map[string]bool // keys with a row published by another writer since the start
	pendingKeys           []string        // of the cells appended since the last flush
	pendingSettled        []bool
	tag                   string
	group                 *WriterGroup // nil: the writer is alone
}

func newUniqueState(dir string, cells store.Schema, children []store.Schema, key UniqueKey, tag string, group *WriterGroup) (*uniqueState, error) {
	if group != nil && !group.tags[tag] {
		return nil, fmt.Errorf("store: writer tag %q is not in its writer group", tag)
	}
	u := &uniqueState{key: key, keyIndex: -1, statusIndex: -1, baseline: map[string]bool{}, read: map[string]bool{},
		settled: map[string]bool{}, recent: map[string]bool{}, tag: tag, group: group}
	for i, c := range cells.Columns {
		switch c.Name {
		case key.Column:
			u.keyIndex = i
			if c.Type != store.TypeString {
				return nil, fmt.Errorf("store: unique key column %q of table %q is %v; want string", c.Name, cells.Table, c.Type)
			}
		case key.Status:
			u.statusIndex = i
			if c.Type != store.TypeString {
				return nil, fmt.Errorf("store: status column %q of table %q is %v; want string", c.Name, cells.Table, c.Type)
			}
		}
	}
	if u.keyIndex < 0 || u.statusIndex < 0 {
		return nil, fmt.Errorf("store: unique key %+v: table %q needs both columns", key, cells.Table)
	}
	for _, child := range children {
		if !hasStringColumn(child, key.Column) {
			return nil, fmt.Errorf("store: unique key %q: child table %q has no string column of that name", key.Column, child.Table)
		}
	}
	paths, err := partPaths(dir, cells.Table)
	if err != nil {
		return nil, err
	}
	for _, p := range paths {
		u.baseline[filepath.Base(p)] = true
	}
	return u, nil
}

func hasStringColumn(s store.Schema, name string) bool {
	for _, c := range s.Columns {
		if c.Name == name && c.Type == store.TypeString {
			return true
		}
	}
	return false
}

// note records a cell row appended since the last flush.
func (u *uniqueState) note(cell store.Row) {
	u.pendingKeys = append(u.pendingKeys, cell[u.keyIndex].AsString())
	u.pendingSettled = append(u.pendingSettled, !cell[u.statusIndex].IsNull() && cell[u.statusIndex].AsString() == u.key.Settled)
}

func (u *uniqueState) forgetPending() {
	u.pendingKeys, u.pendingSettled = u.pendingKeys[:0], u.pendingSettled[:0]
}

// refresh reads the cells parts other writers (not of its group)
// published since the last call. An unreadable part is skipped: its cells count as
// not done, as for every reader.
func (u *uniqueState) refresh(dir, table string) error {
	paths, err := partPaths(dir, table)
	if err != nil {
		return err
	}
	for _, path := range paths {
		name := filepath.Base(path)
		if u.read[name] {
			continue
		}
		u.read[name] = true
		if tag := tagOf(name); tag == u.tag || u.group != nil && u.group.tags[tag] {
			continue
		}
		columns, _, err := readPart(path, []string{u.key.Column, u.key.Status})
		if err != nil {
			continue
		}
		keys, status := columns[0], columns[1]
		for r := range keys.Len() {
			k := keys.Strings[r]
			if !status.IsNull(r) && status.Strings[r] == u.key.Settled {
				u.settled[k] = true
			}
			if !u.baseline[name] {
				u.recent[k] = true
			}
		}
	}
	return nil
}

// lock takes the publish lock, shared with the writer's group if any.
func (u *uniqueState) lock(path string) (func(), error) {
	if u.group != nil {
		return u.group.lock(path)
	}
	return lockFile(path)
}

// duplicates returns the pending keys that must not be published.
func (u *uniqueState) duplicates() map[string]bool {
	drop := map[string]bool{}
	for i, k := range u.pendingKeys {
		if u.settled[k] || !u.pendingSettled[i] && u.recent[k] {
			drop[k] = true
		}
	}
	return drop
}

// flushUniqueLocked is flushLocked for a writer with a UniqueKey: every
// part is completed outside the lock; under it, duplicates are dropped and
// the parts placed, child tables first.
func (w *CellWriter) flushUniqueLocked() error {
	tables := append(append([]*PartWriter{}, w.children...), w.cells)
	for _, pw := range tables {
		if err := pw.flushable(); err != nil {
			return w.failLocked(err)
		}
	}
	temps := make([]string, len(tables))
	for i, pw := range tables {
		temp, err := pw.complete()
		if err != nil {
			removeAll(temps)
			return w.failLocked(fmt.Errorf("store: table %q: %w", pw.Table(), err))
		}
		temps[i] = temp
	}
	unlock, err := w.unique.lock(filepath.Join(w.dir, publishLockName))
	if err != nil {
		removeAll(temps)
		return w.failLocked(err)
	}
	defer unlock()
	if err := w.unique.refresh(w.dir, w.cells.Table()); err != nil {
		removeAll(temps)
		return w.failLocked(err)
	}
	drop := w.unique.duplicates()
	for i, pw := range tables {
		if len(drop) == 0 || temps[i] == "" {
			continue
		}
		if temps[i], err = pw.without(temps[i], w.unique.key.Column, drop); err != nil {
			removeAll(temps)
			return w.failLocked(fmt.Errorf("store: table %q: %w", pw.Table(), err))
		}
	}
	for i, pw := range tables {
		path := ""
		if temps[i] != "" {
			path, err = pw.place(temps[i])
			temps[i] = ""
		}
		if _, err := pw.advance(path, err); err != nil {
			removeAll(temps)
			return w.failLocked(err)
		}
	}
	w.unique.forgetPending()
	w.lastFlush = w.policy.Now()
	return nil
}

func removeAll(paths []string) {
	for _, p := range paths {
		if p != "" {
			os.Remove(p)
		}
	}
}
