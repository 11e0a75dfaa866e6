// Package moldable is the input format of moldable-job scheduling (seed
// 002): independent tasks, all available at time 0, each with a weight and
// a processing time for every processor count 1..m the scheduler may give
// it. It owns the task model, its validation (the monotony the algorithms
// and lower bounds rely on) and its JSON form.
package moldable

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
)

// A Task is one moldable job: its weight in the weighted completion time,
// and Times[k-1], its processing time in seconds on k processors.
type Task struct {
	Name   string    `json:"name,omitempty"`
	Weight float64   `json:"weight"`
	Times  []float64 `json:"times"`
}

// Time returns the processing time on k processors, 1 <= k <= len(Times).
func (t Task) Time(k int) float64 { return t.Times[k-1] }

// Work returns the area k * Time(k) in processor-seconds.
func (t Task) Work(k int) float64 { return float64(k) * t.Times[k-1] }

// A Workload is a set of moldable tasks for a machine of Processors
// identical processors; every task has one time per processor count.
type Workload struct {
	Processors int    `json:"processors"`
	Tasks      []Task `json:"tasks"`
}

// label names task i in errors: its name when it has one.
func (w *Workload) label(i int) string {
	if w.Tasks[i].Name != "" {
		return fmt.Sprintf("task %d (%s)", i, w.Tasks[i].Name)
	}
	return fmt.Sprintf("task %d", i)
}

// Validate checks the workload against the model: at least one processor
// and one task, positive finite weights and times, one time per processor
// count, and monotony: Time(k+1) <= Time(k) and Work(k+1) >= Work(k) for
// every k. The comparisons are exact: a generator must produce exactly
// monotone float64 vectors (gen/moldable does).
func (w *Workload) Validate() error {
	if w.Processors < 1 {
		return fmt.Errorf("moldable workload: processors = %d, want >= 1", w.Processors)
	}
	if len(w.Tasks) == 0 {
		return fmt.Errorf("moldable workload: no tasks, want at least one")
	}
	for i, t := range w.Tasks {
		if !(t.Weight > 0) || math.IsInf(t.Weight, 0) {
			return fmt.Errorf("%s: weight %v, want a finite number > 0", w.label(i), t.Weight)
		}
		if len(t.Times) != w.Processors {
			return fmt.Errorf("%s: %d processing times, want one per processor count (%d)",
				w.label(i), len(t.Times), w.Processors)
		}
		// One pass, each time compared with the previous time and work as
		// Time and Work compute them (no bound before the first).
		prev, prevWork := math.Inf(1), 0.0
		for j, p := range t.Times {
			if !(p > 0 && p <= math.MaxFloat64) {
				return fmt.Errorf("%s: time on %d processors is %v, want a finite number > 0", w.label(i), j+1, p)
			}
			if p > prev {
				return fmt.Errorf("%s: time on %d processors %v exceeds time on %d, %v: times must be non-increasing",
					w.label(i), j+1, p, j, prev)
			}
			work := float64(j+1) * p
			if work < prevWork {
				return fmt.Errorf("%s: work on %d processors %v is below work on %d, %v: work must be non-decreasing",
					w.label(i), j+1, work, j, prevWork)
			}
			prev, prevWork = p, work
		}
	}
	return nil
}

// Read decodes a workload from JSON and validates it; an unknown field is
// an error.
func Read(r io.Reader) (*Workload, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var w Workload
	if err := dec.Decode(&w); err != nil {
		return nil, fmt.Errorf("read moldable workload: %w", err)
	}
	if err := w.Validate(); err != nil {
		return nil, fmt.Errorf("read moldable workload: %w", err)
	}
	return &w, nil
}

// Write encodes the workload as indented JSON.
func (w *Workload) Write(out io.Writer) error {
	enc := json.NewEncoder(out)
	enc.SetIndent("", " ")
	if err := enc.Encode(w); err != nil {
		return fmt.Errorf("write moldable workload: %w", err)
	}
	return nil
}
