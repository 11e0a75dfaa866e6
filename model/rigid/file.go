package rigid

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"

	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/model/rigid/rigidtrace"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// ReadFile reads an SWF trace for one month-cell: the options month
// (YYYY-MM, required) and estimate (T, the default, or R).
func (m Model) ReadFile(path string, options map[string]string, env model.Env) (model.Source, error) {
	for _, key := range slices.Sorted(maps.Keys(options)) {
		if key != "month" && key != "estimate" {
			return nil, model.InputError{Err: fmt.Errorf("%s: option %q; an SWF trace takes month=YYYY-MM and estimate=T|R", path, key)}
		}
	}
	if options["month"] == "" {
		return nil, model.InputError{Err: fmt.Errorf("%s: which month? give the option month=YYYY-MM (a trace is simulated a month at a time)", path)}
	}
	month, err := rigidtrace.ParseMonth(options["month"])
	if err != nil {
		return nil, model.InputError{Err: fmt.Errorf("month: %w", err)}
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
	h := sha256.New()
	trace, err := rigidtrace.Read(io.TeeReader(f, h), path, rigidtrace.Options{Procs: math.MaxInt})
	if err != nil {
		return nil, model.InputError{Err: err}
	}
	if _, err := io.Copy(h, f); err != nil {
		return nil, err
	}
	if _, err := trace.Month(month); err != nil {
		return nil, model.InputError{Err: fmt.Errorf("month: %w", err)}
	}
	if v != rigid.EstimateExact { // predicted is bounded by the request
		if err := trace.CheckRequestedTimes(); err != nil {
			return nil, model.InputError{Err: fmt.Errorf("estimate: %w", err)}
		}
	}
	return &source{own: m.Own, trace: trace, months: []rigidtrace.Month{month}, variants: []rigid.Variant{v},
		canon: fmt.Sprintf("trace sha256=%s rigid", hex.EncodeToString(h.Sum(nil)))}, nil
}
