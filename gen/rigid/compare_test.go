package rigid

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	workload "github.com/sweep-sched/sweep/workload/rigid"
	"github.com/sweep-sched/sweep/workload/swf"
)

// referenceInstances are the instances compared with the authors' code:
// 10 instances of 10,000 jobs on 128 processors, default parameters.
const referenceInstances, referenceJobs, referenceProcs = 10, 10_000, 128

// ourInstances generates the compared instances, with Tsafrir estimates.
func ourInstances(t testing.TB) (lublin, tsafrir [][]figure) {
	for i := range referenceInstances {
		seed := [2]uint64{uint64(i + 1), 0x5eed}
		w, classes, err := Lublin(DefaultParams(), referenceProcs, referenceJobs, seed)
		if err != nil {
			t.Fatal(err)
		}
		lublin = append(lublin, lublinFigures(w.Jobs, classes))
		if err := Tsafrir(w.Jobs, DefaultEstimateParams(), seed); err != nil {
			t.Fatal(err)
		}
		tsafrir = append(tsafrir, tsafrirFigures(w.Jobs))
	}
	return lublin, tsafrir
}

// TestPrintReference prints the figures of the authors' code's output, read
// from the SWF files in $SWEEP_LUBLIN_REF (lublin-<i>.swf from
// m_lublin99.c, tsafrir-<i>.swf from est_model.cc applied to them, i =
// 1..10; see docs/lublin.md for how they were made), beside ours. Skipped
// without the variable: the C code is not part of the repository.
func TestPrintReference(t *testing.T) {
	dir := os.Getenv("SWEEP_LUBLIN_REF")
	if dir == "" {
		t.Skip("SWEEP_LUBLIN_REF not set")
	}
	var lub, tsa [][]figure
	for i := 1; i <= referenceInstances; i++ {
		lub = append(lub, lublinFigures(readSWFJobs(t, filepath.Join(dir, fmt.Sprintf("lublin-%d.swf", i)))))
		jobs, _ := readSWFJobs(t, filepath.Join(dir, fmt.Sprintf("tsafrir-%d.swf", i)))
		tsa = append(tsa, tsafrirFigures(jobs))
	}
	ol, ot := ourInstances(t)
	fmt.Printf("reference lublin:\n%s\nreference tsafrir:\n%s\n", goLiteral(spreads(lub)), goLiteral(spreads(tsa)))
	for _, pair := range [][2][][]figure{{ol, lub}, {ot, tsa}} {
		ours, theirs := spreads(pair[0]), spreads(pair[1])
		for k := range ours {
			fmt.Printf("| %s | %.4g ± %.2g | %.4g ± %.2g |\n", ours[k].name, ours[k].mean, ours[k].sd, theirs[k].mean, theirs[k].sd)
		}
	}
}

// readSWFJobs reads the jobs of an SWF file of the authors' code, with
// their classes from the queue field (where m_lublin99.c writes them).
func readSWFJobs(t testing.TB, path string) ([]workload.Job, []Class) {
	r, err := swf.Open(path, swf.Options{KeepZeroRun: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	all, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	jobs, classes := make([]workload.Job, len(all)), make([]Class, len(all))
	for i, j := range all {
		classes[i] = Class(j.Queue)
		jobs[i] = workload.Job{Number: j.Number, SubmitSeconds: j.SubmitSeconds, Procs: int(j.AllocatedProcs),
			RunSeconds: j.RunSeconds, RequestedSeconds: max(j.RequestedSeconds, j.RunSeconds)}
	}
	return jobs, classes
}
