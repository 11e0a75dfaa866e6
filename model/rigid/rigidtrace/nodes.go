package rigidtrace

import (
	"fmt"
	"slices"

	"github.com/sweep-sched/sweep/workload/rigid"
	"github.com/sweep-sched/sweep/workload/swf"
)

// MissingMemory is what ForMachine does with a job whose requested
// memory (SWF field 10) is missing (-1 or 0).
type MissingMemory struct {
	// Require drops such jobs (counted in Unfit); otherwise they ask
	// DefaultKB per processor (0: no memory).
	Require   bool
	DefaultKB int64
}

// ForMachine returns the trace replayed on machine m of nodes (issue 34):
// each job asks for its processors as pooled cores with its requested
// memory per processor (field 10, KB, rounded up to MiB) per core, on
// the partition its field 16 numbers (1 for the first; on a machine of
// one partition, and for a missing number, any). The jobs no partition
// can hold are dropped and counted by reason (and in ProcsAboveCluster,
// the cells' dropped_wide_jobs); a memory per processor no node of the
// machine holds (a field in the wrong unit) and a partition number the
// machine does not have are errors naming the line and the field.
func (t *Trace) ForMachine(m *rigid.Machine, missing MissingMemory) (*Trace, error) {
	out := *t
	out.Procs = m.Cores()
	out.Machine = m
	out.Jobs, out.Lines, out.NoRequest = nil, nil, nil
	out.MemoryKB, out.Partitions, out.Requests = nil, nil, nil
	out.Report.Unfit = map[string]int{}
	out.Report.ProcsAboveClusterLines = slices.Clone(t.Report.ProcsAboveClusterLines)
	var maxNodeMiB int64
	for _, p := range m.Partitions {
		maxNodeMiB = max(maxNodeMiB, p.MemoryMiB)
	}
	for i, j := range t.Jobs {
		r, drop, err := t.request(i, m, missing, maxNodeMiB, &out.Report)
		if err != nil {
			return nil, err
		}
		if drop == "" {
			drop = m.Unfit(&r, j.Procs)
		}
		if drop != "" {
			out.Report.Unfit[drop]++
			out.Report.ProcsAboveCluster++
			if len(out.Report.ProcsAboveClusterLines) < swf.IssuesKeptPerReason {
				out.Report.ProcsAboveClusterLines = append(out.Report.ProcsAboveClusterLines, t.Lines[i])
			}
			continue
		}
		out.Jobs, out.Lines, out.NoRequest = append(out.Jobs, j), append(out.Lines, t.Lines[i]), append(out.NoRequest, t.NoRequest[i])
		out.MemoryKB, out.Partitions = append(out.MemoryKB, t.MemoryKB[i]), append(out.Partitions, t.Partitions[i])
		out.Requests = append(out.Requests, r)
	}
	return &out, nil
}

// request is job i's request on m, or why it is dropped.
func (t *Trace) request(i int, m *rigid.Machine, missing MissingMemory, maxNodeMiB int64, rep *Report) (rigid.Request, string, error) {
	r := rigid.Request{Partition: rigid.AnyPartition}
	if p := t.Partitions[i]; len(m.Partitions) > 1 && p > 0 {
		if p > int64(len(m.Partitions)) {
			return r, "", fmt.Errorf("%s:%d: field 16 (partition) %d: the platform has %d partitions (numbered from 1 in platform order)", t.Source, t.Lines[i], p, len(m.Partitions))
		}
		r.Partition = int(p - 1)
	}
	kb := t.MemoryKB[i]
	if kb <= 0 {
		if missing.Require {
			return r, "no requested memory (field 10), and memory: require", nil
		}
		kb = missing.DefaultKB
		if kb > 0 {
			rep.MemoryDefault++
		}
	}
	if maxNodeMiB > 0 {
		r.MemoryPerCoreMiB = (kb + 1023) / 1024
	}
	if r.MemoryPerCoreMiB > maxNodeMiB && maxNodeMiB > 0 {
		return r, "", fmt.Errorf("%s:%d: field 10 (requested memory per processor) %d KB: no node of the platform has that much (at most %d MiB); is it in KB?", t.Source, t.Lines[i], kb, maxNodeMiB)
	}
	return r, "", nil
}

// requestsFrom returns the requests of the jobs from index first, nil
// off a machine of nodes.
func (t *Trace) requestsFrom(first int) []rigid.Request {
	if t.Requests == nil {
		return nil
	}
	return t.Requests[first:]
}
