package rigid

import (
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"

	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/model/rigid/rigidtrace"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// ReadFile reads an SWF trace for one cell: the options month (YYYY-MM)
// or from_job and to_job (a window of job indices), else the whole log,
// and estimate (T, the default, or R).
func (m Model) ReadFile(path string, options map[string]string, env model.Env) (model.Source, error) {
	for _, key := range slices.Sorted(maps.Keys(options)) {
		if !slices.Contains([]string{"month", "estimate", "from_job", "to_job"}, key) {
			return nil, model.InputError{Err: fmt.Errorf("%s: option %q; an SWF trace takes month=YYYY-MM or from_job=I and to_job=J (else the whole log is one cell), and estimate=T|R", path, key)}
		}
	}
	pc, err := filePiece(options)
	if err != nil {
		return nil, model.InputError{Err: err}
	}
	estimate := options["estimate"]
	if estimate == "" {
		estimate = "T"
	}
	v, err := rigid.ParseVariant(estimate)
	if err != nil {
		return nil, model.InputError{Err: fmt.Errorf("estimate: %w", err)}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, model.InputError{Err: err}
	}
	defer f.Close()
	var trace *rigidtrace.Trace
	sum, err := model.ReadHashed(f, func(r io.Reader) (err error) {
		trace, err = rigidtrace.Read(r, path, rigidtrace.Options{Procs: math.MaxInt})
		return err
	})
	if err != nil {
		return nil, model.InputError{Err: err}
	}
	if _, err := pc.cut(trace); err != nil {
		return nil, model.InputError{Err: err}
	}
	if v != rigid.EstimateExact { // predicted is bounded by the request
		if err := trace.CheckRequestedTimes(); err != nil {
			return nil, model.InputError{Err: fmt.Errorf("estimate: %w", err)}
		}
	}
	return &source{own: m.Own, trace: trace, pieces: []piece{pc}, variants: []rigid.Variant{v},
		canon: fmt.Sprintf("trace sha256=%s rigid", sum)}, nil
}

// filePiece is the piece of a trace ReadFile's options choose.
func filePiece(options map[string]string) (piece, error) {
	_, from := options["from_job"]
	_, to := options["to_job"]
	switch {
	case options["month"] != "" && (from || to):
		return piece{}, fmt.Errorf("month and from_job/to_job exclude each other")
	case options["month"] != "":
		month, err := rigidtrace.ParseMonth(options["month"])
		if err != nil {
			return piece{}, fmt.Errorf("month: %w", err)
		}
		return piece{month: &month}, nil
	case from || to:
		i, errI := strconv.Atoi(options["from_job"])
		j, errJ := strconv.Atoi(options["to_job"])
		if errI != nil || errJ != nil {
			return piece{}, fmt.Errorf("from_job %q, to_job %q: %s", options["from_job"], options["to_job"], windowWant)
		}
		return windowPiece(WindowSpec{FromJob: &i, ToJob: &j})
	}
	return piece{}, nil
}
