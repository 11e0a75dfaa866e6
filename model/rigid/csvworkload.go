package rigid

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/model/rigid/rigidload"
	"github.com/sweep-sched/sweep/platform"
	"github.com/sweep-sched/sweep/workload/jobcsv"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// csvSource is a CSV job list (workload/jobcsv) replayed whole on a
// platform of nodes, every job measured (docs/nodes.md):
//
//   - trace: workloads/jobs.csv
//     format: csv
//     columns: {submit: SubmitTime}  # fields under other column names
//     estimates: [R]                 # R (default): the estimate; T: the run time
type csvSource struct {
	jobs     *jobcsv.Jobs
	name     string
	canon    string
	variants []rigid.Variant
	own      []Policy

	mu      sync.Mutex
	dropped map[string]map[string]int // per platform: jobs no partition holds, by reason
}

var csvKeys = []string{"format", "estimates", "columns"}

func newCSVSource(w *model.WorkloadSpec, env model.Env) (*csvSource, error) {
	if err := w.CheckOptions(csvKeys...); err != nil {
		return nil, err
	}
	var columns map[string]string
	if _, err := w.Option("columns", &columns); err != nil {
		return nil, fmt.Errorf("line %d: workloads: %w (want a mapping of fields to column names, such as {submit: SubmitTime})", w.Options["columns"].Line, err)
	}
	in, err := readWhole(w, env, "a CSV job list")
	if err != nil {
		return nil, err
	}
	jobs, err := jobcsv.Read(bytes.NewReader(in.data), in.path, columns)
	if err != nil {
		return nil, err
	}
	s := &csvSource{jobs: jobs, variants: in.variants, name: w.Trace, dropped: map[string]map[string]int{}}
	h := sha256.New()
	h.Write(in.data)
	for _, k := range slices.Sorted(maps.Keys(columns)) {
		fmt.Fprintf(h, "\x00%s=%s", k, columns[k])
	}
	s.canon = "csv sha256=" + hex.EncodeToString(h.Sum(nil))
	return s, nil
}

func (s *csvSource) Describe(label string, _ int) string {
	return fmt.Sprintf("%s (CSV job list, %d jobs x %d estimates)", label, len(s.jobs.Jobs), len(s.variants))
}

// Report gives the reader's repairs and, per platform, the jobs no
// partition can hold, dropped, by reason.
func (s *csvSource) Report() string {
	var b strings.Builder
	r := s.jobs.Report
	fmt.Fprintf(&b, "%d jobs; estimate from the run time: %d; run clamped to the estimate: %d\n", len(s.jobs.Jobs), r.EstimateFromRun, r.RunClamped)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, plat := range slices.Sorted(maps.Keys(s.dropped)) {
		for _, why := range slices.Sorted(maps.Keys(s.dropped[plat])) {
			fmt.Fprintf(&b, "  on %s, dropped %d: %s\n", plat, s.dropped[plat][why], why)
		}
	}
	return b.String()
}

func (s *csvSource) Allows(string) error { return nil }

// CheckPlatform wants a platform of nodes with every partition the jobs
// name, and some job it can hold; it notes the jobs it cannot (Report).
func (s *csvSource) CheckPlatform(name string, p *platform.Platform) error {
	if !p.HasNodes() {
		return fmt.Errorf("a CSV job list asks for nodes, memory and GPUs: want a platform of nodes (a platform file with partitions, docs/nodes.md), not %s", name)
	}
	w, err := s.jobs.Workload(s.name, machineOf(p))
	if err != nil {
		return fmt.Errorf("on platform %s: %w", name, err)
	}
	dropped := w.DropUnfit()
	if len(w.Jobs) == 0 {
		return fmt.Errorf("on platform %s: no job of %s fits any partition (%v)", name, s.name, dropped)
	}
	s.mu.Lock()
	s.dropped[name] = dropped
	s.mu.Unlock()
	return nil
}

// machineOf returns a platform of nodes as the simulator's machine.
func machineOf(p *platform.Platform) *rigid.Machine {
	m := &rigid.Machine{}
	for _, q := range p.Partitions {
		m.Partitions = append(m.Partitions, rigid.Partition{Name: q.Name, Nodes: q.Nodes, Cores: q.Cores, MemoryMiB: q.MemoryMiB, GPUs: q.GPUs})
	}
	return m
}

// Groups returns the list's cells, as a Batsim workload's (one group: per
// estimate variant, platform, load and policy).
func (s *csvSource) Groups(ax model.Axes) [][]model.Cell {
	return wholeWorkloadCells(ax, s.variants, s.canon)
}

// CheckLoad refuses a load outside (0, rigidload.MaxLoad).
func (s *csvSource) CheckLoad(load float64) error {
	_, err := rigidload.ParseLoad(load)
	return err
}

func (s *csvSource) Prepare(_ context.Context, _ model.Cell, env model.Env) (model.Prepared, error) {
	return newWholePrepared(env, s.own, s.onPlatform, func(p *platform.Platform) string { return p.Name }), nil
}

// onPlatform returns the list on the platform's machine, the jobs no
// partition holds left out and counted.
func (s *csvSource) onPlatform(p *platform.Platform, plat string) (*rigid.Workload, int, error) {
	w, err := s.jobs.Workload(s.name, machineOf(p))
	if err != nil {
		return nil, 0, err
	}
	dropped := 0
	for _, n := range w.DropUnfit() {
		dropped += n
	}
	if len(w.Jobs) == 0 {
		return nil, 0, fmt.Errorf("no job of %s fits a partition of %s", w.Name, plat)
	}
	return w, dropped, nil
}

// errProcessorsOnly refuses a platform of nodes to a workload of
// processors.
func errProcessorsOnly(name string) error {
	return fmt.Errorf("this workload asks for processors: want a one-cluster platform such as single:64, not the platform of nodes %s (a CSV job list, format: csv, asks for nodes)", name)
}
