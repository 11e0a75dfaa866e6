package rigid

import (
	"fmt"
	"math"
	"slices"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/stats"
	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

// A Resource is one resource of a platform of nodes with the cells'
// measure of its utilisation (model/rigid/measures.go).
type Resource struct{ Name, Measure string }

// Resources are the resources of a platform of nodes, in the order the
// report shows them.
var Resources = []Resource{{"cores", "proc_utilisation"}, {"memory", "util_memory"}, {"GPUs", "util_gpus"}}

// NodeUse is the analysis of a run's cells on platforms of nodes (issue
// 34): each policy's utilisation of each resource, and its jobs' waits
// and slowdowns on each partition (the rigid_partitions table), per load.
type NodeUse struct {
	// Resources are those some cell of the run has (a machine without
	// GPUs has no GPU utilisation).
	Resources   []Resource
	Utilisation []UtilisationRow
	// Partitions are the partitions of the rigid_partitions table, in
	// the order of its first cell; nil when the run did not record it.
	Partitions  []string
	ByPartition []PartitionRow
	// Problems are unreadable part files of rigid_partitions, left out.
	Problems []parquet.Problem
}

// A UtilisationRow is the mean utilisation of Resource over Policy's
// cells at Load, with its 95% confidence interval.
type UtilisationRow struct {
	Load             float64
	Policy, Resource string
	stats.MeanInterval
}

// A PartitionRow is Policy's cells at Load on Partition: the means over
// the cells of their measured jobs' mean wait and mean bounded slowdown
// (95% confidence intervals), the longest wait of any, the jobs that ran
// there in all, and the mean utilisation of each resource (NaN for one
// the partition lacks).
type PartitionRow struct {
	Load                            float64
	Policy, Partition               string
	Cells                           int
	Jobs                            int64
	WaitMeanSeconds, BSLDMean       stats.MeanInterval
	WaitMaxSeconds                  float64
	UtilCores, UtilMemory, UtilGPUs float64
}

// AnalyzeNodes returns the node analysis of r's cells, reading dir's
// rigid_partitions table, or nil when no cell of r ran on nodes (every
// memory and GPU utilisation is NaN, as on processors).
func AnalyzeNodes(dir string, r *analysis.Result) (*NodeUse, error) {
	u := &NodeUse{}
	for _, res := range Resources {
		if c := r.Column(res.Measure); c >= 0 && slices.ContainsFunc(r.Pairing.Groups, func(g analysis.Group) bool {
			for _, cell := range g.Cells {
				if !math.IsNaN(cell.Values[c]) {
					return true
				}
			}
			return false
		}) {
			u.Resources = append(u.Resources, res)
		}
	}
	if !slices.ContainsFunc(u.Resources, func(res Resource) bool { return res.Measure != "proc_utilisation" }) {
		return nil, nil
	}
	for _, load := range r.Loads {
		for _, policy := range r.Policies {
			for _, res := range u.Resources {
				c := r.Column(res.Measure)
				m, err := stats.MeanCI(cellValues(r, load, policy, func(cell *analysis.Cell) float64 { return cell.Values[c] }), 0.95)
				if err == nil {
					u.Utilisation = append(u.Utilisation, UtilisationRow{Load: load, Policy: policy, Resource: res.Name, MeanInterval: m})
				}
			}
		}
	}
	if err := u.readPartitions(dir, r); err != nil {
		return nil, err
	}
	return u, nil
}

// cellValues returns value of each of policy's cells at load.
func cellValues(r *analysis.Result, load float64, policy string, value func(*analysis.Cell) float64) []float64 {
	var out []float64
	for _, g := range r.Pairing.Groups {
		if c := g.Cells[policy]; c != nil && g.Key.Load == load {
			out = append(out, value(c))
		}
	}
	return out
}

// partitionColumns are the rigid_partitions columns read, in
// partitionValues' order after the cell and the partition.
var partitionColumns = []string{table.CellID, "partition", "jobs", "wait_mean_seconds", "wait_max_seconds", "bsld_mean", "util_cores", "util_memory", "util_gpus"}

// partitionCells are one policy's rows at one load on one partition.
type partitionCells struct {
	jobs                                  int64
	waitMax                               float64
	waitMeans, bslds, cores, memory, gpus []float64
}

// readPartitions reads rigid_partitions and aggregates its rows of r's
// successful cells by load, policy and partition.
func (u *NodeUse) readPartitions(dir string, r *analysis.Result) error {
	set, problems, err := parquet.ReadColumns(dir, table.RigidPartitions, partitionColumns)
	if err != nil {
		return fmt.Errorf("reading the partitions of the cells on nodes: %w", err)
	}
	u.Problems = problems
	if set.Rows == 0 {
		return nil // record: {jobs: false}
	}
	if err := set.SortRows(table.CellID); err != nil {
		return err
	}
	cells := map[string]*analysis.Cell{}
	for _, g := range r.Pairing.Groups {
		for _, c := range g.Cells {
			cells[c.ID] = c
		}
	}
	type key struct {
		load              float64
		policy, partition string
	}
	by := map[key]*partitionCells{}
	col := func(k int) *parquet.ColumnData { return &set.Columns[k] }
	for i := range set.Rows {
		c := cells[col(0).Strings[i]]
		if c == nil {
			continue // a failed or unpaired cell
		}
		part := col(1).Strings[i]
		if !slices.Contains(u.Partitions, part) {
			u.Partitions = append(u.Partitions, part)
		}
		k := key{c.Load, c.Policy, part}
		p := by[k]
		if p == nil {
			p = &partitionCells{}
			by[k] = p
		}
		p.jobs += col(2).Int64s[i]
		p.waitMeans = append(p.waitMeans, col(3).Float64s[i])
		p.waitMax = max(p.waitMax, col(4).Float64s[i])
		p.bslds = append(p.bslds, col(5).Float64s[i])
		p.cores, p.memory, p.gpus = append(p.cores, col(6).Float64s[i]), append(p.memory, col(7).Float64s[i]), append(p.gpus, col(8).Float64s[i])
	}
	for _, load := range r.Loads {
		for _, policy := range r.Policies {
			for _, part := range u.Partitions {
				if p := by[key{load, policy, part}]; p != nil {
					u.ByPartition = append(u.ByPartition, p.row(load, policy, part))
				}
			}
		}
	}
	return nil
}

// row summarises a policy's cells on a partition.
func (p *partitionCells) row(load float64, policy, partition string) PartitionRow {
	mean := func(xs []float64) stats.MeanInterval {
		m, err := stats.MeanCI(xs, 0.95)
		if err != nil { // every value NaN: no job ran there
			return stats.MeanInterval{Mean: math.NaN(), Low: math.NaN(), High: math.NaN(), Excluded: len(xs)}
		}
		return m
	}
	return PartitionRow{Load: load, Policy: policy, Partition: partition, Cells: len(p.bslds), Jobs: p.jobs,
		WaitMeanSeconds: mean(p.waitMeans), BSLDMean: mean(p.bslds), WaitMaxSeconds: p.waitMax,
		UtilCores: mean(p.cores).Mean, UtilMemory: mean(p.memory).Mean, UtilGPUs: mean(p.gpus).Mean}
}

// The node analysis's tables.
const (
	UtilisationTable = "node_utilisation"
	PartitionsTable  = "node_partitions"
)

// Tables returns the analysis's tables: node_utilisation (a row per load,
// policy and resource) and node_partitions (per load, policy and
// partition).
func (u *NodeUse) Tables() []analysis.Table {
	s, f, i := store.TypeString, store.TypeFloat64, store.TypeInt64
	nullable := func(name string, t store.Type) store.Column { return store.Column{Name: name, Type: t, Nullable: true} }
	util := analysis.Table{Schema: store.Schema{Table: UtilisationTable, Columns: []store.Column{
		{Name: "load", Type: f}, {Name: "policy", Type: s}, {Name: "resource", Type: s}, {Name: "cells", Type: i},
		{Name: "mean", Type: f}, nullable("ci_low", f), nullable("ci_high", f)}}}
	for _, row := range u.Utilisation {
		util.Rows = append(util.Rows, store.Row{store.Float64(row.Load), store.String(row.Policy), store.String(row.Resource),
			store.Int64(int64(row.N)), store.Float64(row.Mean), analysis.NullIfNaN(row.Low), analysis.NullIfNaN(row.High)})
	}
	parts := analysis.Table{Schema: store.Schema{Table: PartitionsTable, Columns: []store.Column{
		{Name: "load", Type: f}, {Name: "policy", Type: s}, {Name: "partition", Type: s}, {Name: "cells", Type: i}, {Name: "jobs", Type: i},
		nullable("wait_mean_seconds", f), nullable("wait_mean_ci_low", f), nullable("wait_mean_ci_high", f), {Name: "wait_max_seconds", Type: f},
		nullable("bsld_mean", f), nullable("bsld_mean_ci_low", f), nullable("bsld_mean_ci_high", f),
		nullable("util_cores", f), nullable("util_memory", f), nullable("util_gpus", f)}}}
	for _, row := range u.ByPartition {
		w, b := row.WaitMeanSeconds, row.BSLDMean
		n := analysis.NullIfNaN
		parts.Rows = append(parts.Rows, store.Row{store.Float64(row.Load), store.String(row.Policy), store.String(row.Partition),
			store.Int64(int64(row.Cells)), store.Int64(row.Jobs), n(w.Mean), n(w.Low), n(w.High), store.Float64(row.WaitMaxSeconds),
			n(b.Mean), n(b.Low), n(b.High), n(row.UtilCores), n(row.UtilMemory), n(row.UtilGPUs)})
	}
	return []analysis.Table{util, parts}
}
