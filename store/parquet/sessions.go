package parquet

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

const (
	// sessionsDir holds one file per process writing the directory.
	sessionsDir = ".sessions"
	// admitLockName is the lock a process holds while it joins the
	// directory's sessions: it sees every session and what they wrote,
	// and no other process joins meanwhile.
	admitLockName = ".admit.lock"
	sessionSuffix = ".json"
)

// An Owner is what a session file says of the process that writes a
// results directory.
type Owner struct {
	PID     int       `json:"pid"`
	Host    string    `json:"host"`
	Started time.Time `json:"started"`
	// Key is what sessions writing the directory at once must share
	// (sweep: its manifest's hash).
	Key string `json:"key"`
	// Label says what the session runs, for people (sweep: the
	// manifest's path); Shard which part of it.
	Label string `json:"label"`
	Shard string `json:"shard"`
	// Tags are the writer tags of the session's files: the temporary
	// files carrying them are its own.
	Tags []string `json:"tags"`

	file string // the session file
}

// String names the process and what it runs.
func (o Owner) String() string {
	s := fmt.Sprintf("pid %d on host %s, %s", o.PID, o.Host, o.Label)
	if o.Shard != "" {
		s += ", shard " + o.Shard
	}
	return s + ", started " + o.Started.UTC().Format("2006-01-02 15:04:05 UTC")
}

// An Admission is a results directory's admission lock, held: Live are
// the sessions writing the directory now, DeadTags the writer tags of the
// sessions whose process is gone (killed, or on a host that died), whose
// session files Admit removed. Between Admit and Release no other process
// joins or leaves the sessions of the directory.
type Admission struct {
	dir      string
	unlock   func()
	Live     []Owner
	DeadTags []string
}

// Admit takes the admission lock of the results directory dir (created
// if need be) and reads its sessions. A session's file is flock-held by
// its process for as long as it writes, so the kernel (or the NFS server)
// frees it when the process dies, however it dies.
func Admit(dir string) (*Admission, error) {
	if err := os.MkdirAll(filepath.Join(dir, sessionsDir), 0o777); err != nil {
		return nil, fmt.Errorf("store: preparing %s: %w", dir, err)
	}
	unlock, err := lockFile(filepath.Join(dir, admitLockName))
	if err != nil {
		return nil, err
	}
	a := &Admission{dir: dir, unlock: unlock}
	if err := a.readSessions(); err != nil {
		unlock()
		return nil, err
	}
	return a, nil
}

func (a *Admission) readSessions() error {
	entries, err := os.ReadDir(filepath.Join(a.dir, sessionsDir))
	if err != nil {
		return fmt.Errorf("store: listing sessions of %s: %w", a.dir, err)
	}
	for _, e := range entries {
		path := filepath.Join(a.dir, sessionsDir, e.Name())
		if !strings.HasSuffix(e.Name(), sessionSuffix) {
			// A session file of a process killed while it joined.
			removeIfFree(path)
			continue
		}
		o, live, err := readSession(path)
		if err != nil {
			return err
		}
		if live {
			a.Live = append(a.Live, o)
		} else {
			a.DeadTags = append(a.DeadTags, o.Tags...)
		}
	}
	return nil
}

// removeIfFree removes the file at path unless a process holds its lock.
func removeIfFree(path string) {
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	if free, err := tryLock(f); err == nil && free {
		os.Remove(path)
	}
}

// readSession reads a session file; a session whose lock is free is
// dead, and its file is removed.
func readSession(path string) (o Owner, live bool, err error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return Owner{}, false, nil // left meanwhile
	}
	if err != nil {
		return Owner{}, false, fmt.Errorf("store: opening session %s: %w", path, err)
	}
	defer f.Close()
	free, err := tryLock(f)
	if err != nil {
		return Owner{}, false, err
	}
	data, err := os.ReadFile(path)
	if err == nil {
		// A session file is written under the admission lock, so it is
		// whole; one that does not decode names no live process.
		err = json.Unmarshal(data, &o)
	}
	o.file = path
	if free {
		if rmErr := os.Remove(path); rmErr != nil && !errors.Is(rmErr, fs.ErrNotExist) {
			return o, false, fmt.Errorf("store: removing the session of a finished process: %w", rmErr)
		}
		return o, false, nil
	}
	if err != nil {
		return o, false, fmt.Errorf("store: reading session %s: %w", path, err)
	}
	return o, true, nil
}

// LiveSessions returns the sessions writing the results directory dir
// now, without the admission lock and without writing (for a status of a
// directory that may be read-only): a session file whose lock is free is
// a dead session's, left for the next run to remove.
func LiveSessions(dir string) ([]Owner, error) {
	entries, err := os.ReadDir(filepath.Join(dir, sessionsDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("store: listing sessions of %s: %w", dir, err)
	}
	var live []Owner
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), sessionSuffix) {
			continue
		}
		path := filepath.Join(dir, sessionsDir, e.Name())
		f, err := os.Open(path)
		if err != nil {
			continue // gone meanwhile
		}
		free, err := tryLock(f)
		data, readErr := os.ReadFile(path)
		f.Close()
		if err != nil || free || readErr != nil {
			continue
		}
		var o Owner
		if json.Unmarshal(data, &o) == nil {
			o.file = path
			live = append(live, o)
		}
	}
	return live, nil
}

// LiveTags are the writer tags of the live sessions.
func (a *Admission) LiveTags() map[string]bool {
	tags := map[string]bool{}
	for _, o := range a.Live {
		for _, t := range o.Tags {
			tags[t] = true
		}
	}
	return tags
}

// Release lets go of the admission lock.
func (a *Admission) Release() {
	if a.unlock != nil {
		a.unlock()
		a.unlock = nil
	}
}

// WaitFor releases the admission lock and waits until the session of o
// ends; the caller admits itself again to see what it left.
func (a *Admission) WaitFor(o Owner) error {
	a.Release()
	f, err := os.Open(o.file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("store: waiting for %s: %w", o, err)
	}
	defer f.Close()
	return waitLock(f)
}

// A Session is this process's claim on a results directory while it
// writes (see Admit).
type Session struct {
	file *os.File
	path string
}

// Join adds this process's session to the directory, described by o
// (PID and Host are filled in). It holds until Close.
func (a *Admission) Join(o Owner) (*Session, error) {
	o.PID = os.Getpid()
	if host, err := os.Hostname(); err == nil {
		o.Host = host
	}
	data, err := json.Marshal(o)
	if err != nil {
		return nil, fmt.Errorf("store: encoding session: %w", err)
	}
	f, err := CreateTemp(filepath.Join(a.dir, sessionsDir), fmt.Sprintf("%s-%d-", safeName(o.Host), o.PID))
	if err != nil {
		return nil, fmt.Errorf("store: joining %s: %w", a.dir, err)
	}
	s := &Session{file: f}
	if held, err := tryLock(f); err != nil || !held {
		s.Close()
		return nil, errors.Join(fmt.Errorf("store: locking the session file %s", f.Name()), err)
	}
	// The name ends in .json only once the file is whole and locked.
	named := f.Name() + sessionSuffix
	if _, err := f.Write(data); err != nil {
		s.Close()
		return nil, fmt.Errorf("store: writing session: %w", err)
	}
	if err := os.Rename(f.Name(), named); err != nil {
		s.Close()
		return nil, fmt.Errorf("store: joining %s: %w", a.dir, err)
	}
	s.path = named
	return s, nil
}

// Close ends the session: its file is removed, then its lock freed. A
// nil session is none.
func (s *Session) Close() {
	if s == nil {
		return
	}
	path := s.path
	if path == "" {
		path = s.file.Name()
	}
	os.Remove(path)
	s.file.Close()
}

func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' {
			return r
		}
		return '_'
	}, s)
}

// RemoveDeadTemps deletes the temporary files in DIR/<table> of writers
// that are not live: those whose tag is not in live (Admission.LiveTags),
// and any not named by a writer. Call it under the admission lock, so no
// session starts meanwhile. It returns the removed paths.
func RemoveDeadTemps(dir, table string, live map[string]bool) ([]string, error) {
	entries, err := tableEntries(dir, table)
	if err != nil {
		return nil, err
	}
	var removed []string
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, tempPrefix) || !e.Type().IsRegular() || live[tagOf(name)] {
			continue
		}
		path := filepath.Join(dir, table, name)
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return removed, fmt.Errorf("store: removing a dead writer's temporary file: %w", err)
		}
		removed = append(removed, path)
	}
	slices.Sort(removed)
	return removed, nil
}
