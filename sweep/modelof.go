package sweep

import (
	"fmt"
	"strings"

	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/platform"
)

// modelOf returns the model of a workload entry: the one its model: key
// names (taken out of the entry's options), else the one model that takes
// it, else, among the models that take it (a whole trace is a campaign
// trace and a rigid one), the one whose policies the manifest lists.
func (m *Manifest) modelOf(w *model.WorkloadSpec) (model.Model, error) {
	var name string
	if _, err := w.Option("model", &name); err != nil {
		return nil, err
	}
	delete(w.Options, "model")
	if err := m.models.CheckWorkloadKeys(w); err != nil {
		return nil, err
	}
	if name != "" {
		md := m.models.Lookup(name)
		if md == nil || !md.Takes(w) {
			return nil, fmt.Errorf("model %q: want one of the models that take this workload: %s", name, strings.Join(m.takers(w), ", "))
		}
		return md, nil
	}
	takers := m.takers(w)
	if len(takers) < 2 {
		return m.models.ModelOf(w)
	}
	chosen := m.modelsOfPolicies(takers)
	if len(chosen) != 1 {
		return nil, fmt.Errorf("the workload could be a %s workload and the policies do not tell which; give model: (%s)", strings.Join(takers, " or "), strings.Join(takers, ", "))
	}
	return m.models.Lookup(chosen[0]), nil
}

// modelsOfPolicies returns, of the models named, those offering a policy
// of the manifest; when several do, those offering every policy the
// manifest lists (policies [fcfs, sjf] choose the rigid model, fcfs alone
// both the campaign and the rigid model).
func (m *Manifest) modelsOfPolicies(names []string) []string {
	var some, every []string
	for _, t := range names {
		md := m.models.Lookup(t)
		n := 0
		for _, spec := range m.Policies {
			if m.offers(md, spec.Name) {
				n++
			}
		}
		if n > 0 {
			some = append(some, t)
		}
		if n == len(m.Policies) {
			every = append(every, t)
		}
	}
	if len(some) > 1 {
		return every
	}
	return some
}

// takers names the models that take a workload entry.
func (m *Manifest) takers(w *model.WorkloadSpec) []string {
	var out []string
	for _, md := range m.models.Models() {
		if md.Takes(w) {
			out = append(out, md.Name())
		}
	}
	return out
}

// A loadsOptional model's cells range over the manifest's loads when it
// gives them, and replay their recorded arrivals when it does not (the
// rigid model's traces).
type loadsOptional interface{ LoadsOptional() bool }

// takesLoads reports whether md's cells range over the manifest's loads.
// A loads-optional model takes them unless a workload of a model that
// needs loads is in the manifest: those loads are that model's, and every
// manifest written before the rigid model took loads keeps its cells.
func (m *Manifest) takesLoads(md model.Model) bool {
	if o, ok := md.(loadsOptional); ok && o.LoadsOptional() {
		for _, rs := range m.sources {
			if rs.model.UsesLoads() {
				return false
			}
		}
		return len(m.Loads) > 0
	}
	return md.UsesLoads()
}

// tracePlatform is the platform name that stands for each trace's own
// machine, read from its header by a source that says so (a
// traceSizer); it is given a placeholder platform no other source runs on.
const tracePlatform = "trace"

// A traceSizer is a source that takes its machine from its trace.
type traceSizer interface{ SizesFromTrace() bool }

// placeholderPlatform stands in for tracePlatform in the platform map.
func placeholderPlatform() *platform.Platform { return platform.Single(1) }

// checkTracePlatform refuses the trace platform for a source that does
// not size itself from its trace.
func checkTracePlatform(name string, src model.Source) error {
	if name != tracePlatform {
		return nil
	}
	if s, ok := src.(traceSizer); ok && s.SizesFromTrace() {
		return nil
	}
	return fmt.Errorf("platform trace takes the machine from an SWF trace's header; this workload is not an SWF trace: give a platform such as single:N (or exclude the pair)")
}

// A loadChecker is a source that bounds the loads it takes (a rigid
// workload's offered load must stay below 1).
type loadChecker interface{ CheckLoad(load float64) error }

// checkSourceLoads asks each source that bounds its loads about every
// load of the manifest.
func (m *Manifest) checkSourceLoads() error {
	for i, rs := range m.sources {
		c, ok := rs.source.(loadChecker)
		if !ok || !m.takesLoads(rs.model) {
			continue
		}
		for _, l := range m.Loads {
			if err := c.CheckLoad(l); err != nil {
				w := &m.Workloads[i]
				return fmt.Errorf("%s: workloads[%d] (%s): %w", m.at("loads"), i, w.Label, err)
			}
		}
	}
	return nil
}
