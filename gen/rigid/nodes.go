package rigid

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	workload "github.com/sweep-sched/sweep/workload/rigid"
)

// NodeParams are the parameters of NodeRequests, the rule that turns jobs
// drawn for a machine's cores into requests on its nodes (issue 34). The
// Lublin model draws no memory or GPUs: this rule is ours, documented in
// docs/nodes.md, not a published model.
type NodeParams struct {
	// GPUJobs is the probability that a job asks for GPUs (when the
	// machine has a partition with GPUs).
	GPUJobs float64
	// MemPerCoreMinMiB and MemPerCoreMaxMiB bound the memory per core a
	// job asks, drawn log-uniformly between them.
	MemPerCoreMinMiB, MemPerCoreMaxMiB int64
}

// DefaultNodeParams: a quarter of the jobs on GPUs, 512 MiB to 8 GiB per
// core.
func DefaultNodeParams() NodeParams {
	return NodeParams{GPUJobs: 0.25, MemPerCoreMinMiB: 512, MemPerCoreMaxMiB: 8192}
}

// NodeKeys are NodeParams' names in a generated workload's set.
var NodeKeys = []string{"gpu-jobs", "mem-per-core-min", "mem-per-core-max"}

// NodeDoc returns what a node parameter means, "" for another name.
func NodeDoc(key string) string {
	switch key {
	case "gpu-jobs":
		return "on a platform of nodes: the probability that a job asks for GPUs; a probability in 0..1"
	case "mem-per-core-min":
		return "on a platform of nodes: the least memory per core a job asks, MiB; a whole number >= 1"
	case "mem-per-core-max":
		return "on a platform of nodes: the most memory per core a job asks, MiB (log-uniform in between); a whole number >= mem-per-core-min"
	}
	return ""
}

// Set sets a node parameter from its text form.
func (p *NodeParams) Set(key, value string) error {
	value = strings.TrimSpace(value)
	switch key {
	case "gpu-jobs":
		v, err := strconv.ParseFloat(value, 64)
		if err != nil || !(v >= 0 && v <= 1) {
			return fmt.Errorf("%s: parameter gpu-jobs=%q: want a probability in 0..1", LublinName, value)
		}
		p.GPUJobs = v
		return nil
	case "mem-per-core-min", "mem-per-core-max":
		v, err := strconv.ParseInt(value, 10, 64)
		if err != nil || v < 1 || v > 1<<30 {
			return fmt.Errorf("%s: parameter %s=%q: want MiB, a whole number in 1..%d", LublinName, key, value, 1<<30)
		}
		if key == "mem-per-core-min" {
			p.MemPerCoreMinMiB = v
		} else {
			p.MemPerCoreMaxMiB = v
		}
		return nil
	}
	return fmt.Errorf("%s: unknown node parameter %q", LublinName, key)
}

// Canonical renders the parameters for identities.
func (p NodeParams) Canonical() string {
	return fmt.Sprintf("gpu-jobs=%s mem-per-core=%d..%d", strconv.FormatFloat(p.GPUJobs, 'g', -1, 64), p.MemPerCoreMinMiB, p.MemPerCoreMaxMiB)
}

// NodeRequests gives each job a request on machine m and sets its Procs
// to the cores it then holds. The rule, job by job, from the seed's
// stream: with probability GPUJobs (and a partition with GPUs) the job
// goes to the first partition with GPUs and asks 1 to its nodes' GPUs per
// node, uniformly; otherwise to the first partition without GPUs (the
// first partition when all have some). On a partition of N nodes of C
// cores, a job of p processors asks n = min(ceil(p/C), N) nodes of
// min(ceil(p/n), C) cores each: its size rounded up to whole nodes'
// cores and clamped to the partition. Its memory per node is its cores
// per node times a memory per core drawn log-uniformly in
// [MemPerCoreMinMiB, MemPerCoreMaxMiB], clamped to the node's memory.
// Every request fits its partition.
func NodeRequests(jobs []workload.Job, m *workload.Machine, p NodeParams, seed [2]uint64) ([]workload.Request, error) {
	if p.MemPerCoreMinMiB > p.MemPerCoreMaxMiB {
		return nil, fmt.Errorf("%s: mem-per-core-min %d MiB above mem-per-core-max %d MiB", LublinName, p.MemPerCoreMinMiB, p.MemPerCoreMaxMiB)
	}
	gpuPart, cpuPart := -1, 0
	for i := len(m.Partitions) - 1; i >= 0; i-- {
		if m.Partitions[i].GPUs > 0 {
			gpuPart = i
		} else {
			cpuPart = i
		}
	}
	if m.Partitions[cpuPart].GPUs > 0 {
		cpuPart = 0
	}
	rng := rand.New(rand.NewPCG(seed[0], seed[1]))
	lo, hi := math.Log(float64(p.MemPerCoreMinMiB)), math.Log(float64(p.MemPerCoreMaxMiB))
	out := make([]workload.Request, len(jobs))
	for i := range jobs {
		gpu := gpuPart >= 0 && rng.Float64() < p.GPUJobs
		memPerCore := int64(math.Exp(lo + rng.Float64()*(hi-lo)))
		part := cpuPart
		if gpu {
			part = gpuPart
		}
		q := &m.Partitions[part]
		n := min((jobs[i].Procs+q.Cores-1)/q.Cores, q.Nodes)
		c := min((jobs[i].Procs+n-1)/n, q.Cores)
		r := workload.Request{Nodes: n, CoresPerNode: c, Partition: part}
		if q.MemoryMiB > 0 {
			r.MemoryPerNodeMiB = min(int64(c)*memPerCore, q.MemoryMiB)
		}
		if gpu {
			r.GPUsPerNode = 1 + rng.IntN(q.GPUs)
		}
		out[i] = r
		jobs[i].Procs = n * c
	}
	return out, nil
}
