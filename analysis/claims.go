package analysis

// A Claim is one statement of a paper's text checked against a run (seed
// 002's in shared/design/moldable.md section 5, seed 003's in
// fairshare.md section 6): Holds says whether the run satisfies it and
// Evidence gives the numbers.
type Claim struct {
	Workload string // the workload it is about, or "all"
	Text     string
	Holds    bool
	Evidence string
}
