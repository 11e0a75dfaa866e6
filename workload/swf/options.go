package swf

import (
	"fmt"
	"math"
	"time"
)

// Options selects jobs and chooses the questionable repair rules. The
// zero value reads every job with the default rules of the package
// comment.
type Options struct {
	// Window keeps jobs submitted in [from, to); the zero Window keeps all.
	Window Window
	// IncludeUsers, when not empty, keeps only these user ids;
	// ExcludeUsers then removes users.
	IncludeUsers []int64
	ExcludeUsers []int64

	// Strict makes Next return an Issue for a malformed line instead of
	// dropping it.
	Strict bool
	// KeepZeroRun keeps jobs with run time 0 (noted) instead of dropping
	// them.
	KeepZeroRun bool
	// DropCancelled drops cancelled jobs that did run (those that did not
	// are always dropped); DropFailed drops failed jobs.
	DropCancelled bool
	DropFailed    bool
	// ClampRunToRequest sets the run time of a job that ran longer than it
	// requested to the requested time; otherwise the job is only noted.
	ClampRunToRequest bool
}

type windowKind uint8

const (
	windowAll windowKind = iota
	windowLogSeconds
	windowInstants
	windowDates
)

// Window is a half-open interval of submit times. Build one with
// LogWindow, UnixWindow or DateWindow; it is resolved against the log's
// header when the Reader is created.
type Window struct {
	kind                   windowKind
	fromSeconds, toSeconds int64
	from, to               time.Time
	fromDate, toDate       string
}

// LogWindow selects submit times in [fromSeconds, toSeconds) counted from
// the log's start.
func LogWindow(fromSeconds, toSeconds int64) Window {
	return Window{kind: windowLogSeconds, fromSeconds: fromSeconds, toSeconds: toSeconds}
}

// UnixWindow selects submit times in [from, to) as absolute instants; the
// log needs a UnixStartTime header.
func UnixWindow(from, to time.Time) Window {
	return Window{kind: windowInstants, from: from, to: to}
}

// DateWindow selects submit times from midnight starting fromDate to
// midnight starting toDate, both "YYYY-MM-DD" in the log's own time zone
// (see the package comment); toDate itself is excluded. The paper period
// "Dec 6 2004 - Jan 24 2005" including Jan 24 is
// DateWindow("2004-12-06", "2005-01-25").
func DateWindow(fromDate, toDate string) Window {
	return Window{kind: windowDates, fromDate: fromDate, toDate: toDate}
}

// Resolve returns the window in log seconds for a log with header h; the
// zero Window gives the whole int64 range.
func (w Window) Resolve(h Header) (fromSeconds, toSeconds int64, err error) {
	switch w.kind {
	case windowAll:
		return math.MinInt64, math.MaxInt64, nil
	case windowLogSeconds:
		fromSeconds, toSeconds = w.fromSeconds, w.toSeconds
	case windowInstants:
		if fromSeconds, err = h.LogSeconds(w.from); err != nil {
			return 0, 0, fmt.Errorf("window start %s: %w", w.from, err)
		}
		if toSeconds, err = h.LogSeconds(w.to); err != nil {
			return 0, 0, fmt.Errorf("window end %s: %w", w.to, err)
		}
	case windowDates:
		loc, err := h.Location()
		if err != nil {
			return 0, 0, fmt.Errorf("date window needs the log's time zone: %w", err)
		}
		dates := [2]string{w.fromDate, w.toDate}
		var seconds [2]int64
		for i, d := range dates {
			t, err := time.ParseInLocation(time.DateOnly, d, loc)
			if err != nil {
				return 0, 0, fmt.Errorf("window date %q: want YYYY-MM-DD: %w", d, err)
			}
			if seconds[i], err = h.LogSeconds(t); err != nil {
				return 0, 0, fmt.Errorf("window date %q: %w", d, err)
			}
		}
		fromSeconds, toSeconds = seconds[0], seconds[1]
	}
	if fromSeconds >= toSeconds {
		return 0, 0, fmt.Errorf("window [%d, %d) log seconds is empty: the start must come before the end", fromSeconds, toSeconds)
	}
	return fromSeconds, toSeconds, nil
}
