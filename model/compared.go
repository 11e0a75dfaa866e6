package model

// The optional interfaces below tell the paired analysis (`sweep analyze`
// compares a run's cells across policies on their model's Measures) what
// it must know of a model beyond its measures. They carry data only: a
// model imports no analysis.

// A Referenced model names the policy its cells' paired comparison takes
// as the reference by default, such as the grid's PSLR (seed 004) or the
// campaign model's OStrich (seeds 000 and 001); a model that does not is
// compared with its first policy.
type Referenced interface {
	Reference() string
}

// A Rebased model has a measure taken at a base of each cell's own, which
// the paired analysis puts on one base per group of paired cells before
// comparing them: the grid's cumulative completion, taken at each cell's
// makespan.
type Rebased interface {
	Rebase() Rebase
}

// Rebase names a measure taken at a cell's own base: Base is the integer
// measure that holds the cell's base, Weight the integer measure the value
// grows by per unit of base, and Func converts a value from one base to
// another.
type Rebase struct {
	Measure, Base, Weight string
	Func                  func(value float64, fromBase, toBase, weight int64) float64
}

// A Figured model names the figures of its measures that `sweep report`
// draws for a run of its cells when no study is bound to it (a study
// draws its paper's); a model that is not Figured gets a box plot of each
// ranked measure.
type Figured interface {
	Figures() []Figure
}

// A Figure is one figure of one measure.
type Figure struct {
	Kind    FigureKind
	Measure string // a name among the model's Measures
	Title   string
}

// FigureKind is what a Figure draws.
type FigureKind int

// The kinds of Figure.
const (
	// BoxByPolicy draws one box per policy over every cell (every load
	// pooled when there are several).
	BoxByPolicy FigureKind = iota
	// MeanByLoad draws the measure's mean against the load, one line per
	// policy, with 95% confidence intervals.
	MeanByLoad
	// MeanByLoadPerWorkload draws MeanByLoad over every workload, then
	// one such figure per workload label when the run has several: a
	// synthetic model's instances and a trace's one cell per load do not
	// average into a curve of either.
	MeanByLoadPerWorkload
)
