package rigid

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/model/rigid/rigidtrace"
	"github.com/sweep-sched/sweep/platform"
)

// An SWF log on a platform of nodes (docs/nodes.md): each job asks for
// its processors as pooled cores with its requested memory per processor
// (field 10) per core, on the partition field 16 numbers
// (rigidtrace.ForMachine). The entry's memory key says what a job without
// requested memory asks:
//
//   - trace: log.swf
//     memory: ignore     # none (the default), require (such jobs are dropped) or a size per processor such as 2GiB

// parseMemory reads the memory key.
func parseMemory(w *model.WorkloadSpec) (rigidtrace.MissingMemory, error) {
	var s string
	if _, err := w.Option("memory", &s); err != nil {
		return rigidtrace.MissingMemory{}, err
	}
	switch s {
	case "", "ignore":
		return rigidtrace.MissingMemory{}, nil
	case "require":
		return rigidtrace.MissingMemory{Require: true}, nil
	}
	mib, err := platform.ParseMemoryMiB(s)
	if err != nil || mib == 0 {
		return rigidtrace.MissingMemory{}, fmt.Errorf("line %d: workloads: memory %q: want ignore (a job without requested memory asks none, the default), require (it is dropped) or a size per processor such as 2GiB", w.Options["memory"].Line, s)
	}
	return rigidtrace.MissingMemory{DefaultKB: mib * 1024}, nil
}

// memoryMeaning is the memory option in the source's identity.
func memoryMeaning(m rigidtrace.MissingMemory) string {
	if m.Require {
		return "memory=require"
	}
	return fmt.Sprintf("memory=%dKB", m.DefaultKB)
}

// checkMachine checks the log on a platform of nodes: a partition number
// it does not have or a memory no node holds is an error; it notes the
// jobs dropped by reason for the report.
func (s *source) checkMachine(name string, p *platform.Platform) error {
	t, err := s.trace.ForMachine(machineOf(p), s.memory)
	if err != nil {
		return fmt.Errorf("on platform %s: %w", name, err)
	}
	if len(t.Jobs) == 0 {
		return fmt.Errorf("on platform %s: no job of %s fits a partition (%v)", name, s.trace.Source, t.Report.Unfit)
	}
	s.noteUnfit(name, t.Report)
	return nil
}

// noteUnfit keeps a platform's dropped jobs for Report.
func (s *source) noteUnfit(name string, r rigidtrace.Report) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.unfit == nil {
		s.unfit = map[string]string{}
	}
	var b strings.Builder
	for _, why := range slices.Sorted(maps.Keys(r.Unfit)) {
		fmt.Fprintf(&b, "  on %s, dropped %d: %s\n", name, r.Unfit[why], why)
	}
	if r.MemoryDefault > 0 {
		fmt.Fprintf(&b, "  on %s, memory from the default: %d jobs\n", name, r.MemoryDefault)
	}
	s.unfit[name] = b.String()
}

// unfitReport is the platforms' notes, in name order.
func (s *source) unfitReport() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(s.unfit)) {
		b.WriteString(s.unfit[name])
	}
	return b.String()
}
