package rigid

import (
	"math"
	"slices"

	"github.com/sweep-sched/sweep/export"
	"strconv"
	"strings"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/store"
)

// What a cell on a platform of nodes adds to its outputs (issue 34): the
// jobs' nodes, memory, GPUs and partition in rigid_jobs, the machine's
// utilisation per resource among the measures, and a row per partition
// in rigid_partitions.

// held sums what a job held over its nodes.
func held(shares []backfill.NodeShare) (cores, gpus, memMiB int64) {
	for _, sh := range shares {
		cores += int64(sh.Cores)
		gpus += int64(sh.GPUs)
		memMiB += sh.MemoryMiB
	}
	return cores, gpus, memMiB
}

// nodeColumns are job j's rigid_jobs columns of a platform of nodes,
// nulls on processors.
func (o *Outcome) nodeColumns(j int) []store.Value {
	w, s := o.Workload, o.Schedule
	if w.Machine == nil || s.Nodes == nil {
		return []store.Value{store.Null(), store.Null(), store.Null(), store.Null(), store.Null()}
	}
	shares := s.Nodes[j]
	_, gpus, mem := held(shares)
	ids := make([]string, len(shares))
	for i, sh := range shares {
		ids[i] = strconv.Itoa(int(sh.Node))
	}
	return []store.Value{store.Int64(int64(len(shares))), store.Int64(mem), store.Int64(gpus),
		store.String(o.partitionOf(shares)), store.String(strings.Join(ids, ","))}
}

// partitionOf names the partition of a job's nodes (all in one).
func (o *Outcome) partitionOf(shares []backfill.NodeShare) string {
	if len(shares) == 0 {
		return ""
	}
	return o.Workload.Machine.Partitions[o.partitionIndex(int(shares[0].Node))].Name
}

func (o *Outcome) partitionIndex(node int) int {
	for p, q := range o.Workload.Machine.Partitions {
		if node < q.Nodes {
			return p
		}
		node -= q.Nodes
	}
	return -1
}

// partitionStats are one partition's measures (or the machine's, part
// -1): its measured jobs that started, their waits and bounded
// slowdowns, and the resource-seconds they held over the partition's
// over the measured jobs' span (first submit to last end).
type partitionStats struct {
	jobs                      int64
	waitSum, waitMax, bsldSum float64
	coreSec, memSec, gpuSec   float64
	cores, memMiB, gpus       float64
}

func (o *Outcome) partitionStats(part int) partitionStats {
	w, s := o.Workload, o.Schedule
	var st partitionStats
	for p, q := range w.Machine.Partitions {
		if part < 0 || p == part {
			st.cores += float64(q.Nodes * q.Cores)
			st.memMiB += float64(int64(q.Nodes) * q.MemoryMiB)
			st.gpus += float64(q.Nodes * q.GPUs)
		}
	}
	for j := range w.Jobs {
		if !w.Measured(j) || s.StartSeconds[j] < 0 || part >= 0 && o.partitionIndex(int(s.Nodes[j][0].Node)) != part {
			continue
		}
		wait, run := s.StartSeconds[j]-w.Jobs[j].SubmitSeconds, o.runSeconds(j)
		st.jobs++
		st.waitSum += float64(wait)
		st.waitMax = max(st.waitMax, float64(wait))
		st.bsldSum += boundedSlowdown(wait, run)
		c, g, m := held(s.Nodes[j])
		st.coreSec += float64(c * run)
		st.gpuSec += float64(g * run)
		st.memSec += float64(m * run)
	}
	return st
}

// ratio is a/b, NaN when b is 0 (a resource the machine does not have).
func ratio(a, b float64) float64 {
	if b == 0 {
		return math.NaN()
	}
	return a / b
}

// utilisation returns the held resource-seconds of st over the capacity
// for the measured jobs' span.
func (o *Outcome) utilisation(st partitionStats) (cores, mem, gpus float64) {
	span := float64(max(o.stats().makespanSeconds, 1))
	return ratio(st.coreSec, st.cores*span), ratio(st.memSec, st.memMiB*span), ratio(st.gpuSec, st.gpus*span)
}

// resourceUtilisation is a utilisation measure: NaN on processors.
func (o *Outcome) resourceUtilisation(pick func(cores, mem, gpus float64) float64) float64 {
	if o.Workload.Machine == nil || o.Schedule.Nodes == nil {
		return math.NaN()
	}
	return pick(o.utilisation(o.partitionStats(-1)))
}

// partitionRows are the rigid_partitions rows of a cell on nodes.
func (o *Outcome) partitionRows() []store.Row {
	var rows []store.Row
	for p, q := range o.Workload.Machine.Partitions {
		st := o.partitionStats(p)
		c, m, g := o.utilisation(st)
		n := float64(st.jobs)
		rows = append(rows, store.Row{store.String(o.CellID), store.String(q.Name), store.Int64(st.jobs),
			store.Float64(ratio(st.waitSum, n)), store.Float64(st.waitMax), store.Float64(ratio(st.bsldSum, n)),
			store.Float64(c), store.Float64(m), store.Float64(g)})
	}
	return rows
}

// exportNodes fills an exported job's nodes (jobs.csv's allocations) and
// SWF memory and partition fields: the memory it held per processor (KB,
// rounded up) and its partition's number (from 1).
func (o *Outcome) exportNodes(e *export.Job, j int) {
	shares := o.Schedule.Nodes[j]
	if len(shares) == 0 {
		return
	}
	for _, sh := range shares {
		e.NodeIDs = append(e.NodeIDs, int(sh.Node))
	}
	slices.Sort(e.NodeIDs) // the allocator lists them as it chose them
	_, _, mem := held(shares)
	if procs := int64(o.Workload.Jobs[j].Procs); mem > 0 && procs > 0 {
		e.RequestedMemoryKB = (mem*1024 + procs - 1) / procs
	}
	e.Partition = int64(o.partitionIndex(int(shares[0].Node)) + 1)
}
