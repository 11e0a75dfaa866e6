package grid

import (
	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/store/parquet"
)

// Result is the grid analysis of a run beyond the paired comparison of
// its cells: the SLR by job-volume decile.
type Result struct {
	Deciles *Deciles // nil when the run recorded no job rows
	// Problems are unreadable part files of the volume_deciles or jobs
	// table whose rows were left out.
	Problems []parquet.Problem
}

// Analyze reads the volume deciles (or, in older runs, the jobs) of the
// results directory dir for the successful cells of r.
func Analyze(dir string, r *analysis.Result) (*Result, error) {
	deciles, problems, err := ReadDeciles(dir, r.Pairing, r.Policies)
	if err != nil {
		return nil, err
	}
	return &Result{Deciles: deciles, Problems: problems}, nil
}

// PolicyOrder is the order of policies in seed 004's tables after the
// reference (analysis.Measures.PolicyOrder).
func PolicyOrder() []string {
	return []string{"pslr", "lrtf", "srtf", "random", "fifo-task", "fifo-job", "fairshare"}
}
