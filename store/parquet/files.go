package parquet

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sweep-sched/sweep/store"
)

const (
	partPrefix   = "part-"
	partSuffix   = ".parquet"
	tempPrefix   = ".tmp-part-"
	asideSuffix  = ".bad"
	seqDigits    = 6
	tagRandBytes = 6
)

func partName(tag string, seq int) string {
	return fmt.Sprintf("%s%s-%0*d%s", partPrefix, tag, seqDigits, seq, partSuffix)
}

// tempName deliberately does not end in .parquet and starts with a dot, so
// neither ListParts nor DuckDB's *.parquet glob can see a half-written part.
func tempName(tag string, seq int) string {
	return fmt.Sprintf("%s%s-%0*d", tempPrefix, tag, seqDigits, seq)
}

// isPart reports whether a directory entry name is a visible part file.
func isPart(name string) bool {
	return strings.HasSuffix(name, partSuffix) && !strings.HasPrefix(name, ".")
}

// TagOf returns the writer tag in the name of a part or temporary file,
// or "" when the name follows neither pattern.
func TagOf(name string) string { return tagOf(name) }

// tagOf returns the tag in a part or temporary file name, or "" when the
// name does not follow either pattern.
func tagOf(name string) string {
	switch {
	case strings.HasPrefix(name, tempPrefix):
		name = strings.TrimPrefix(name, tempPrefix)
	case strings.HasPrefix(name, partPrefix) && strings.HasSuffix(name, partSuffix):
		name = strings.TrimSuffix(strings.TrimPrefix(name, partPrefix), partSuffix)
	default:
		return ""
	}
	dash := strings.LastIndexByte(name, '-')
	if dash <= 0 {
		return ""
	}
	if _, err := strconv.Atoi(name[dash+1:]); err != nil {
		return ""
	}
	return name[:dash]
}

// NewTag returns a writer tag that is unique across processes and hosts:
// label (e.g. "s01of03", may be empty), the UTC time to the second, and 48
// random bits. The random bits only name files; they never reach results.
func NewTag(label string, now time.Time) (string, error) {
	var b [tagRandBytes]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("store: making a writer tag: %w", err)
	}
	tag := now.UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
	if label != "" {
		if err := store.CheckName(label); err != nil {
			return "", fmt.Errorf("store: tag label: %w", err)
		}
		tag = label + "-" + tag
	}
	return tag, nil
}

// tableEntries lists DIR/table; a missing directory is an empty table.
func tableEntries(dir, table string) ([]fs.DirEntry, error) {
	entries, err := os.ReadDir(filepath.Join(dir, table))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("store: listing table %q: %w", table, err)
	}
	return entries, nil
}

// partPaths returns the visible part files of a table in name order, so
// every reader sees rows in the same order.
func partPaths(dir, table string) ([]string, error) {
	entries, err := tableEntries(dir, table)
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, e := range entries {
		if e.Type().IsRegular() && isPart(e.Name()) {
			paths = append(paths, filepath.Join(dir, table, e.Name()))
		}
	}
	sort.Strings(paths)
	return paths, nil
}

// Orphans returns the part files of table child (e.g. "jobs") that have no
// part of the same name in table parent (e.g. "cells"). A CellWriter flush
// publishes the jobs part and then the cells part under the same name, so
// an orphan is the jobs part of a flush killed in between: its cells are
// not done, will run again, and the orphan would duplicate their job rows.
// The runner should move orphans aside before resuming.
func Orphans(dir, child, parent string) ([]string, error) {
	children, err := partPaths(dir, child)
	if err != nil {
		return nil, err
	}
	var orphans []string
	for _, path := range children {
		_, err := os.Lstat(filepath.Join(dir, parent, filepath.Base(path)))
		if errors.Is(err, fs.ErrNotExist) {
			orphans = append(orphans, path)
		} else if err != nil {
			return nil, fmt.Errorf("store: looking for the %s part of %s: %w", parent, path, err)
		}
	}
	return orphans, nil
}

// MoveAside renames a part file (a problem reported by ListParts or
// ReadColumns, or an orphan) to a name ending in .bad, which readers and
// the *.parquet glob ignore, and returns the new path. It never replaces an
// existing file.
func MoveAside(path string) (string, error) {
	for i := 0; ; i++ {
		target := path + asideSuffix
		if i > 0 {
			target += strconv.Itoa(i)
		}
		err := os.Link(path, target)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("store: moving %s aside: %w", path, err)
		}
		if err := os.Remove(path); err != nil {
			return "", fmt.Errorf("store: moving %s aside: %w", path, err)
		}
		return target, nil
	}
}
