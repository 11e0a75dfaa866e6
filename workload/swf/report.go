package swf

import (
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
)

// Reason names one rule of the reader that dropped, filtered, repaired or
// noted a line. The package comment lists the rules in the order they are
// checked.
type Reason uint8

// The reasons, grouped by what the reader does about them.
const (
	ReasonFieldCount       Reason = iota // dropped: not 18 fields
	ReasonNotANumber                     // dropped: a field is not a decimal number
	ReasonBelowMinusOne                  // dropped: a field below -1
	ReasonSubmitUnknown                  // dropped: submit time -1
	ReasonUserFiltered                   // filtered: user not selected
	ReasonOutsideWindow                  // filtered: submit time outside the window
	ReasonCancelledNoRun                 // dropped: cancelled with run time 0 or -1
	ReasonCancelled                      // dropped: cancelled, Options.DropCancelled
	ReasonFailed                         // dropped: failed, Options.DropFailed
	ReasonRunUnknown                     // dropped: run time -1
	ReasonRunZero                        // dropped: run time 0
	ReasonRunZeroKept                    // noted: run time 0, Options.KeepZeroRun
	ReasonProcsUnknown                   // dropped: allocated and requested processors unknown
	ReasonProcsFromRequest               // repaired: allocated processors taken from requested
	ReasonRunClamped                     // repaired: run time clamped to requested time
	ReasonRunOverRequest                 // noted: run time above requested time
	ReasonRequestUnknown                 // noted: requested time -1
	ReasonWaitUnknown                    // noted: wait time -1
	ReasonSubmitDecreasing               // noted: submit time below an earlier job's
	ReasonHeaderValue                    // noted: a known header key whose value is not a number
	numReasons
)

// Action says what the reader did with a line or job for a Reason.
type Action uint8

// The actions. Dropped and Filtered lines are not returned; Repaired and
// Noted jobs are.
const (
	Dropped Action = iota
	Filtered
	Repaired
	Noted
)

// String returns the action's name as printed in a Report.
func (a Action) String() string {
	switch a {
	case Dropped:
		return "dropped"
	case Filtered:
		return "filtered"
	case Repaired:
		return "repaired"
	case Noted:
		return "noted"
	}
	return "action(" + strconv.Itoa(int(a)) + ")"
}

var reasonInfo = [numReasons]struct {
	text   string
	action Action
}{
	ReasonFieldCount:       {"wrong number of fields (want 18)", Dropped},
	ReasonNotANumber:       {"field is not a decimal number", Dropped},
	ReasonBelowMinusOne:    {"field below -1 (-1 means unknown)", Dropped},
	ReasonSubmitUnknown:    {"submit time -1", Dropped},
	ReasonUserFiltered:     {"user not selected", Filtered},
	ReasonOutsideWindow:    {"submit time outside the window", Filtered},
	ReasonCancelledNoRun:   {"cancelled (status 5) with run time 0 or -1", Dropped},
	ReasonCancelled:        {"cancelled (status 5), DropCancelled", Dropped},
	ReasonFailed:           {"failed (status 0), DropFailed", Dropped},
	ReasonRunUnknown:       {"run time -1", Dropped},
	ReasonRunZero:          {"run time 0", Dropped},
	ReasonRunZeroKept:      {"run time 0, KeepZeroRun", Noted},
	ReasonProcsUnknown:     {"allocated and requested processors unknown", Dropped},
	ReasonProcsFromRequest: {"allocated processors -1 or 0: requested used", Repaired},
	ReasonRunClamped:       {"run time above requested: clamped to it", Repaired},
	ReasonRunOverRequest:   {"run time above requested time", Noted},
	ReasonRequestUnknown:   {"requested time -1", Noted},
	ReasonWaitUnknown:      {"wait time -1 (campaigns take 0)", Noted},
	ReasonSubmitDecreasing: {"submit time below an earlier job's", Noted},
	ReasonHeaderValue:      {"header value is not a number: ignored", Noted},
}

// String describes the reason in a few words.
func (r Reason) String() string {
	if r >= numReasons {
		return "reason(" + strconv.Itoa(int(r)) + ")"
	}
	return reasonInfo[r].text
}

// Action returns what the reader does for this reason.
func (r Reason) Action() Action {
	if r >= numReasons {
		return Noted
	}
	return reasonInfo[r].action
}

// Notes is the set of Repaired and Noted reasons that apply to one job.
type Notes uint32

// Has reports whether reason r applies.
func (n Notes) Has(r Reason) bool { return n&(1<<r) != 0 }

func (n *Notes) add(r Reason) { *n |= 1 << r }

// Issue locates one application of a Reason: the source, its 1-based
// line and what was found there. Issue is also the error Reader.Next
// returns for a malformed line in strict mode.
type Issue struct {
	Source string
	Line   int
	Reason Reason
	Detail string
}

// Error formats the issue as "source:line: reason: detail".
func (i Issue) Error() string {
	s := fmt.Sprintf("%s:%d: %s", i.Source, i.Line, i.Reason)
	if i.Detail != "" {
		s += ": " + i.Detail
	}
	return s
}

// IssuesKeptPerReason bounds the memory of a Report on a log where one
// rule fires hundreds of thousands of times; the count stays exact. A
// reader of SWF with rules of its own keeps as many first lines of each.
const IssuesKeptPerReason = 5

// Report accounts for every line a Reader has consumed.
type Report struct {
	Source       string
	Lines        int // all lines read, including the header
	CommentLines int
	BlankLines   int
	Jobs         int // jobs returned
	counts       [numReasons]int
	issues       []Issue // the first IssuesKeptPerReason per reason, in line order
}

// Count returns how many times reason r applied.
func (rep Report) Count(r Reason) int {
	if r >= numReasons {
		return 0
	}
	return rep.counts[r]
}

// Dropped returns the number of job lines dropped for any reason.
func (rep Report) Dropped() int { return rep.sum(Dropped) }

// Filtered returns the number of job lines left out by the user and time
// filters.
func (rep Report) Filtered() int { return rep.sum(Filtered) }

func (rep Report) sum(a Action) int {
	n := 0
	for r, c := range rep.counts {
		if Reason(r).Action() == a {
			n += c
		}
	}
	return n
}

// Issues returns the first few located issues of each reason, in line
// order.
func (rep Report) Issues() []Issue {
	return append([]Issue(nil), rep.issues...)
}

func (rep *Report) record(line int, r Reason, detail string) {
	rep.counts[r]++
	if rep.counts[r] <= IssuesKeptPerReason {
		rep.issues = append(rep.issues, Issue{Source: rep.Source, Line: line, Reason: r, Detail: detail})
	}
}

// Without returns the report without the noted reasons given: a reader
// of the jobs that does not use a field leaves out the notes about it
// (the rigid model takes no recorded wait times). Dropped, filtered and
// repaired reasons stay: they change the line balance or the jobs.
func (rep Report) Without(reasons ...Reason) Report {
	out := rep
	out.issues = nil
	for _, r := range reasons {
		if r < numReasons && r.Action() == Noted {
			out.counts[r] = 0
		}
	}
	for _, is := range rep.issues {
		if out.counts[is.Reason] > 0 {
			out.issues = append(out.issues, is)
		}
	}
	return out
}

// String prints the line balance and a table of the reasons that applied,
// with the first line numbers of each.
func (rep Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d lines = %d jobs + %d dropped + %d filtered + %d comment + %d blank\n",
		rep.Source, rep.Lines, rep.Jobs, rep.Dropped(), rep.Filtered(), rep.CommentLines, rep.BlankLines)
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "count\taction\treason\tfirst lines")
	for r, c := range rep.counts {
		if c == 0 {
			continue
		}
		var lines []string
		for _, is := range rep.issues {
			if is.Reason == Reason(r) {
				lines = append(lines, strconv.Itoa(is.Line))
			}
		}
		if c > len(lines) {
			lines = append(lines, "...")
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", c, Reason(r).Action(), Reason(r), strings.Join(lines, " "))
	}
	tw.Flush()
	return b.String()
}
