package analysis

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

// Provenance says where an analysis's numbers come from: the experiment,
// its manifest, seed and versions, how much of the run is done, and what
// the run cost. Every output of `sweep analyze` and `sweep report` opens
// with it, and every analysis table carries it as metadata.
type Provenance struct {
	Experiment string
	// Manifest is the path of the manifest the run was started from;
	// ManifestSHA256 the hash of its canonical form, as the cells record.
	Manifest, ManifestSHA256 string
	// RootSeed is the manifest's seed; Replicates the number of root seeds
	// derived from it. Both are empty/0 when the manifest copy could not
	// be loaded.
	RootSeed   string
	Replicates int
	// ModelVersions are the versions of the models that computed the
	// cells; SweepVersions the versions of sweep that ran them (several
	// when a run was resumed with another build).
	ModelVersions, SweepVersions []string
	// AnalyzedWith is the version of sweep analysing; Date when.
	AnalyzedWith string
	Date         time.Time
	// Workloads are the cells done, failed and planned per workload, in
	// manifest order. Planned is known when PlanKnown; PlanNote says why
	// not otherwise.
	Workloads []WorkloadProgress
	PlanKnown bool
	PlanNote  string
	// Partial says the analysis was asked for (--partial) on a run with
	// incomplete workloads.
	Partial bool
	// WallSeconds is the run's wall time: the time covered by the
	// sessions that wrote cells (a run, a resume, shards), each from its
	// start to its last part file; Sessions counts them (0: written before
	// sweep recorded its start). CellSeconds is the cells' simulation times summed, each
	// cell on one core: the run's CPU time less writing and start-up.
	// Workers is the largest number of cells a session ran at once.
	WallSeconds, CellSeconds float64
	Sessions, Workers        int
	// SweepCPUSeconds and ChildCPUSeconds are the CPU time the sessions
	// that recorded it used (table.SessionCPU: sweep's own, and its child
	// processes', such as a Python policy's, which the cells' times do not
	// show as CPU); CPUSessions counts those sessions (a killed one
	// records none).
	SweepCPUSeconds, ChildCPUSeconds float64
	CPUSessions                      int
}

// WorkloadProgress counts one workload's cells: Done finished ok, Failed
// recorded failed, Planned in the manifest (counted over the workload's
// planned cells only, when the plan is known).
type WorkloadProgress struct {
	Workload              string
	Done, Failed, Planned int
}

// Complete says every planned cell of the workload finished ok.
func (w WorkloadProgress) Complete() bool { return w.Done >= w.Planned }

// PlannedCell is one cell a manifest plans: its id and workload.
type PlannedCell struct{ ID, Workload string }

// Totals returns the cells done, failed and planned over all workloads.
func (p *Provenance) Totals() (done, failed, planned int) {
	for _, w := range p.Workloads {
		done, failed, planned = done+w.Done, failed+w.Failed, planned+w.Planned
	}
	return done, failed, planned
}

// Incomplete returns the workloads with planned cells not done ok (none
// when the plan is unknown).
func (p *Provenance) Incomplete() []WorkloadProgress {
	if !p.PlanKnown {
		return nil
	}
	var out []WorkloadProgress
	for _, w := range p.Workloads {
		if !w.Complete() {
			out = append(out, w)
		}
	}
	return out
}

// ReadProvenance reads the provenance of the results directory dir from
// its cells table (statuses, simulation times and the part files'
// metadata). planned lists the cells of the run's manifest; nil means the
// plan is unknown, and planNote says why.
func ReadProvenance(dir string, planned []PlannedCell, planNote string) (*Provenance, error) {
	p := &Provenance{Date: time.Now().UTC(), PlanKnown: planned != nil, PlanNote: planNote}
	parts, _, err := parquet.ListParts(dir, table.Cells)
	if err != nil {
		return nil, fmt.Errorf("reading the provenance of %s: %w", dir, err)
	}
	sessions := p.readPartMetadata(parts)
	p.Sessions = len(sessions)
	for _, s := range sessions {
		p.Workers = max(p.Workers, s.workers)
	}
	p.WallSeconds = coveredSeconds(sessions)
	var cells cellStatuses
	if len(parts) > 0 {
		if cells, err = readCellStatuses(dir); err != nil {
			return nil, fmt.Errorf("reading the provenance of %s: %w", dir, err)
		}
	}
	p.CellSeconds = cells.seconds
	if err := p.readSessionCPU(dir); err != nil {
		return nil, fmt.Errorf("reading the provenance of %s: %w", dir, err)
	}
	if planned != nil {
		p.Workloads = cells.plannedProgress(planned)
	} else {
		p.Workloads = cells.progress()
	}
	return p, nil
}

// readSessionCPU sums the CPU time the run's sessions recorded in
// table.CPUDir; a directory without it (a run before sweep recorded CPU)
// has none.
func (p *Provenance) readSessionCPU(dir string) error {
	paths, err := filepath.Glob(filepath.Join(dir, table.CPUDir, "*.json"))
	if err != nil {
		return err
	}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var s table.SessionCPU
		if err := json.Unmarshal(data, &s); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		p.SweepCPUSeconds += s.SweepSeconds
		p.ChildCPUSeconds += s.ChildrenSeconds
		p.CPUSessions++
	}
	return nil
}

// A runSession is the part files one session of a run wrote (a run, a
// resume, a shard): its start, its last part file, its workers.
type runSession struct {
	start, last time.Time
	workers     int
}

// readPartMetadata takes the experiment, manifest hash and versions from
// the parts' metadata, and returns the sessions that recorded their
// start, by start and shard.
func (p *Provenance) readPartMetadata(parts []parquet.PartInfo) map[string]*runSession {
	sessions := map[string]*runSession{}
	for _, part := range parts {
		md := part.Metadata
		p.Experiment = cmp.Or(p.Experiment, md["sweep.experiment"])
		p.ManifestSHA256 = cmp.Or(p.ManifestSHA256, md["sweep.manifest_sha256"])
		addDistinct(&p.SweepVersions, md["sweep.tool_version"])
		addDistinct(&p.ModelVersions, md["sweep.model_version"])
		started, err := time.Parse(time.RFC3339Nano, md[table.RunStartedKey])
		if err != nil {
			continue // written before runs recorded their start
		}
		info, err := os.Stat(part.Path)
		if err != nil {
			continue
		}
		key := md[table.RunStartedKey] + "|" + md["sweep.shard"]
		s := sessions[key]
		if s == nil {
			s = &runSession{start: started}
			sessions[key] = s
		}
		s.last = maxTime(s.last, info.ModTime())
		if n, err := strconv.Atoi(md[table.WorkersKey]); err == nil {
			s.workers = max(s.workers, n)
		}
	}
	slices.Sort(p.SweepVersions)
	slices.Sort(p.ModelVersions)
	return sessions
}

// coveredSeconds is the run's wall time: the length of the union of the
// sessions' spans, from each start to its last part file. A resume adds
// its own span; shards running at once count once.
func coveredSeconds(sessions map[string]*runSession) float64 {
	var spans []runSession
	for _, s := range sessions {
		spans = append(spans, *s)
	}
	slices.SortFunc(spans, func(a, b runSession) int { return a.start.Compare(b.start) })
	var seconds float64
	var covered time.Time
	for _, s := range spans {
		from := s.start
		if from.Before(covered) {
			from = covered
		}
		if s.last.After(from) {
			seconds += s.last.Sub(from).Seconds()
			covered = s.last
		}
	}
	return seconds
}

// cellStatuses are the cells a run's rows record: each cell's status
// (ok when any row is ok) and workload, the workloads in the order their
// cells first appear, and the cells' simulation seconds summed.
type cellStatuses struct {
	status, workloadOf map[string]string
	order              []string
	seconds            float64
}

func readCellStatuses(dir string) (cellStatuses, error) {
	cols, _, err := parquet.ReadColumns(dir, table.Cells, []string{table.CellID, table.Workload, table.Status, table.WallMS})
	if err != nil {
		return cellStatuses{}, err
	}
	c := cellStatuses{status: map[string]string{}, workloadOf: map[string]string{}}
	ids, workloads := cols.Column(table.CellID).Strings, cols.Column(table.Workload).Strings
	statuses, walls := cols.Column(table.Status).Strings, cols.Column(table.WallMS).Int64s
	for i, id := range ids {
		c.seconds += float64(walls[i]) / 1000
		// An ok row wins over a failed one: a retried cell keeps its
		// old failed row in an older part file.
		if c.status[id] != table.StatusOK {
			c.status[id] = statuses[i]
		}
		if _, seen := c.workloadOf[id]; !seen {
			c.workloadOf[id] = workloads[i]
			if !slices.Contains(c.order, workloads[i]) {
				c.order = append(c.order, workloads[i])
			}
		}
	}
	return c, nil
}

// plannedProgress counts the planned cells per workload, in the plan's
// order: planned, done ok, recorded failed.
func (c cellStatuses) plannedProgress(planned []PlannedCell) []WorkloadProgress {
	var order []string
	counts := map[string]*WorkloadProgress{}
	for _, cell := range planned {
		w := counts[cell.Workload]
		if w == nil {
			w = &WorkloadProgress{Workload: cell.Workload}
			counts[cell.Workload] = w
			order = append(order, cell.Workload)
		}
		w.Planned++
		w.count(c.status[cell.ID])
	}
	return progressIn(order, counts)
}

// progress counts, without a plan, every cell with a row per workload, in
// the order the workloads first appear.
func (c cellStatuses) progress() []WorkloadProgress {
	counts := map[string]*WorkloadProgress{}
	for _, w := range c.order {
		counts[w] = &WorkloadProgress{Workload: w}
	}
	for id, st := range c.status {
		counts[c.workloadOf[id]].count(st)
	}
	return progressIn(c.order, counts)
}

func (w *WorkloadProgress) count(status string) {
	switch status {
	case table.StatusOK:
		w.Done++
	case table.StatusFailed:
		w.Failed++
	}
}

func progressIn(order []string, counts map[string]*WorkloadProgress) []WorkloadProgress {
	var out []WorkloadProgress
	for _, name := range order {
		out = append(out, *counts[name])
	}
	return out
}

// A ProvenanceLine is one entry of the provenance block: Key names it in
// table metadata (under "provenance."), Label on the page and in the text.
type ProvenanceLine struct{ Key, Label, Value string }

// Lines returns the provenance block, in the order it is shown; the text,
// the page and the tables' metadata all take it from here.
func (p *Provenance) Lines() []ProvenanceLine {
	done, failed, planned := p.Totals()
	plannedText := strconv.Itoa(planned)
	if !p.PlanKnown {
		plannedText = "unknown (" + p.PlanNote + ")"
	}
	var perWorkload []string
	for _, w := range p.Workloads {
		s := fmt.Sprintf("%s %d", w.Workload, w.Done)
		if p.PlanKnown {
			s += fmt.Sprintf("/%d", w.Planned)
		}
		if w.Failed > 0 {
			s += fmt.Sprintf(" (%d failed)", w.Failed)
		}
		perWorkload = append(perWorkload, s)
	}
	state := "complete"
	switch {
	case !p.PlanKnown:
		state = "unknown"
	case p.Partial:
		var names []string
		for _, w := range p.Incomplete() {
			names = append(names, w.Workload)
		}
		state = "PARTIAL: incomplete workloads " + strings.Join(names, ", ")
	}
	cost := "not recorded (a run written before sweep recorded its start)"
	if p.Sessions > 0 {
		cost = fmt.Sprintf("wall %s over %d session(s), cell time %s (the cells' simulation times summed), %s, %d cores",
			formatSeconds(p.WallSeconds), p.Sessions, formatSeconds(p.CellSeconds), p.cpuText(), p.Workers)
	}
	seed := p.RootSeed
	if seed == "" {
		seed = "unknown"
	}
	replicates := "unknown"
	if p.Replicates > 0 {
		replicates = strconv.Itoa(p.Replicates)
	}
	return []ProvenanceLine{
		{"experiment", "experiment", p.Experiment},
		{"manifest", "manifest", p.Manifest},
		{"manifest_sha256", "manifest sha256", p.ManifestSHA256},
		{"root_seed", "root seed", seed},
		{"replicates", "replicates", replicates},
		{"model_versions", "model versions", strings.Join(p.ModelVersions, "; ")},
		{"sweep_version", "run by sweep", strings.Join(p.SweepVersions, ", ")},
		{"analyzed_with", "analysed by sweep", p.AnalyzedWith},
		{"date", "analysed on", p.Date.Format(time.RFC3339)},
		{"completeness", "completeness", state},
		{"cells_done", "cells done", strconv.Itoa(done)},
		{"cells_planned", "cells planned", plannedText},
		{"cells_failed", "cells failed", strconv.Itoa(failed)},
		{"cells_by_workload", "cells by workload (done/planned)", strings.Join(perWorkload, ", ")},
		{"run_cost", "run", cost},
	}
}

// Metadata returns the provenance as key-value metadata of an analysis
// table: "provenance.<key>" for every line, plus provenance.partial
// ("true" or "false") and, when partial, provenance.incomplete_workloads.
func (p *Provenance) Metadata() map[string]string {
	md := map[string]string{"provenance.partial": strconv.FormatBool(p.Partial)}
	for _, l := range p.Lines() {
		md["provenance."+l.Key] = l.Value
	}
	if p.Partial {
		var names []string
		for _, w := range p.Incomplete() {
			names = append(names, w.Workload)
		}
		md["provenance.incomplete_workloads"] = strings.Join(names, ",")
	}
	if p.Sessions > 0 {
		md["provenance.run_wall_seconds"] = strconv.FormatFloat(p.WallSeconds, 'f', 3, 64)
		md["provenance.run_cpu_seconds"] = strconv.FormatFloat(p.CellSeconds, 'f', 3, 64)
		md["provenance.run_cores"] = strconv.Itoa(p.Workers)
	}
	if p.CPUSessions > 0 {
		md["provenance.run_sweep_cpu_seconds"] = strconv.FormatFloat(p.SweepCPUSeconds, 'f', 3, 64)
		md["provenance.run_child_cpu_seconds"] = strconv.FormatFloat(p.ChildCPUSeconds, 'f', 3, 64)
	}
	return md
}

// cpuText states the recorded CPU time: sweep's and its child processes'.
func (p *Provenance) cpuText() string {
	if p.CPUSessions == 0 {
		return "CPU not recorded (a run before sweep recorded it)"
	}
	return fmt.Sprintf("CPU %s (sweep %s + child processes %s, recorded by %d of the %d sessions)",
		formatSeconds(p.SweepCPUSeconds+p.ChildCPUSeconds), formatSeconds(p.SweepCPUSeconds), formatSeconds(p.ChildCPUSeconds), p.CPUSessions, p.Sessions)
}

// WithMetadata returns a copy of tables whose metadata also holds the
// provenance's.
func (p *Provenance) WithMetadata(tables []Table) []Table {
	out := slices.Clone(tables)
	for i := range out {
		md := p.Metadata()
		for k, v := range out[i].Metadata {
			md[k] = v
		}
		out[i].Metadata = md
	}
	return out
}

func formatSeconds(s float64) string {
	return time.Duration(s * float64(time.Second)).Round(time.Second).String()
}

func addDistinct(list *[]string, v string) {
	if v != "" && !slices.Contains(*list, v) {
		*list = append(*list, v)
	}
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
