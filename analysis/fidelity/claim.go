package fidelity

import (
	"fmt"
	"math"
	"strings"
)

// A Status is what `sweep analyze` concludes about a claim; the strings
// are those of docs/fidelity-claims.yaml.
type Status string

const (
	// Holds: ours is inside the paper's stated bound, or the paper's
	// value inside our 95% interval (the test each model's analysis
	// states).
	Holds Status = "holds"
	// DoesNotHold: the data contradicts the claim, and either no
	// explanation is registered or its investigation found none.
	DoesNotHold Status = "does-not-hold"
	// Explained: the data contradicts the claim and a registered
	// explanation gives the cause and its section of docs/fidelity.md.
	Explained Status = "explained"
	// NotCheckable: the run cannot decide the claim (no value of ours);
	// Reason says why.
	NotCheckable Status = "not-checkable"
)

// Statuses are the statuses in the order summaries count them.
var Statuses = []Status{Holds, Explained, DoesNotHold, NotCheckable}

// Words returns the status as prose: "does not hold" rather than
// "does-not-hold".
func (s Status) Words() string { return strings.ReplaceAll(string(s), "-", " ") }

// A Claim is one claim of a paper checked against a run: a row of
// analysis/claims.parquet.
type Claim struct {
	Study string // the experiment (the manifest's experiment key)
	// ID names the claim within its study, in analyze's naming (see
	// docs/fidelity.md, "The claims file"): seed 004
	// dominance/<metric>/<policy>/<load> and significance/...; campaign
	// studies <workload>/<metric>/<policy> and <workload>/<metric>/<A rel
	// B>; seed 002 <workload>/<claim text>; seed 003 the claim text.
	ID   string
	Text string
	// Paper is the paper's value or bound as the manifest or text gives
	// it ("87", "< 1.4", "significant", "as the text says"); PaperValue
	// is its number, NaN when it has none.
	Paper      string
	PaperValue float64
	// Ours is our value or evidence as printed; OursValue its number and
	// Low, High its 95% interval, each NaN when there is none.
	Ours                 string
	OursValue, Low, High float64
	Status               Status
	// Reason is the one-line cause of an explained claim or of a claim
	// that does not hold after investigation, or why a claim is not
	// checkable; Section is the anchor of the investigation in
	// docs/fidelity.md and ReproducedBy the setting that gives the
	// paper's value, when there is one.
	Reason, Section, ReproducedBy string
}

// Checked returns a claim whose status the data decides: Holds when holds,
// else DoesNotHold; the numbers not given are NaN.
func Checked(id, text, paper, ours string, holds bool) Claim {
	nan := math.NaN()
	c := Claim{ID: id, Text: text, Paper: paper, Ours: ours, PaperValue: nan, OursValue: nan, Low: nan, High: nan, Status: DoesNotHold}
	if holds {
		c.Status = Holds
	}
	return c
}

// NotChecked returns c marked not checkable for reason.
func (c Claim) NotChecked(reason string) Claim {
	c.Status, c.Reason = NotCheckable, reason
	return c
}

// HasInterval reports whether the claim carries our 95% interval.
func (c Claim) HasInterval() bool { return !math.IsNaN(c.Low) && !math.IsNaN(c.High) }

// Counts returns the number of claims of each status.
func Counts(claims []Claim) map[Status]int {
	counts := map[Status]int{}
	for _, c := range claims {
		counts[c.Status]++
	}
	return counts
}

// Summary returns the counts as the first screen of the report and
// `sweep analyze` give them: "141 hold, 24 explained, 3 do not hold",
// then ", 2 not checkable" when some are.
func Summary(claims []Claim) string {
	counts := Counts(claims)
	hold := "hold"
	if counts[Holds] == 1 {
		hold = "holds"
	}
	notHold := "do not hold"
	if counts[DoesNotHold] == 1 {
		notHold = "does not hold"
	}
	s := fmt.Sprintf("%d %s, %d explained, %d %s", counts[Holds], hold, counts[Explained], counts[DoesNotHold], notHold)
	if n := counts[NotCheckable]; n > 0 {
		s += fmt.Sprintf(", %d not checkable", n)
	}
	return s
}
