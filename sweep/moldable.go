package sweep

import (
	"context"
	"fmt"
	"time"

	mcampaign "github.com/sweep-sched/sweep/model/campaign"
	"github.com/sweep-sched/sweep/model/grid"

	emoldable "github.com/sweep-sched/sweep/engine/moldable"
	"github.com/sweep-sched/sweep/engine/moldable/lpbound"
	"github.com/sweep-sched/sweep/engine/verify"
	gmoldable "github.com/sweep-sched/sweep/gen/moldable"
	"github.com/sweep-sched/sweep/sweep/store"
)

// moldableInstance is one moldable workload instance with what every
// algorithm's cell shares: lambda* with the MRT allotment (and the time
// they took, part of the algorithms that use them) and the interval-LP
// bound on sum w C.
type moldableInstance struct {
	instance      *emoldable.Instance
	lambdaSeconds float64
	lpBound       float64
}

// buildMoldable generates the cell's instance and computes its bounds.
func buildMoldable(m *Manifest, cell Cell) (*moldableInstance, error) {
	src := m.sources[cell.spec]
	w, err := gmoldable.Generate(*src.moldable, ReplicateSeed(m.Seed, cell.Replicate), cell.Instance)
	if err != nil {
		return nil, fmt.Errorf("generating %s instance %d: %w", cell.Workload, cell.Instance, err)
	}
	opts, err := m.moldableOptions()
	if err != nil {
		return nil, err
	}
	start := time.Now()
	in, err := emoldable.NewInstance(w)
	if err != nil {
		return nil, fmt.Errorf("%s instance %d: %w", cell.Workload, cell.Instance, err)
	}
	lambdaSeconds := time.Since(start).Seconds()
	lp, err := lpbound.New(w, emoldable.LPBoundaries(in.LambdaStar, in.PMin, opts.Anchor))
	if err != nil {
		return nil, fmt.Errorf("%s instance %d: %w", cell.Workload, cell.Instance, err)
	}
	sol, err := lp.Solve()
	if err != nil {
		return nil, fmt.Errorf("%s instance %d: %w", cell.Workload, cell.Instance, err)
	}
	return &moldableInstance{instance: in, lambdaSeconds: lambdaSeconds, lpBound: sol.Value}, nil
}

// moldableModel is the part of a moldable cell's identity that the
// manifest's moldable section fixes.
func (m *Manifest) moldableModel() string {
	o, _ := m.moldableOptions() // validated with the manifest
	return fmt.Sprintf("moldable anchor=%s tail=%s variant=%s list=%s shuffles=%d", o.Anchor, o.Tail, o.Variant, o.List, o.Shuffles)
}

// usesLambdaStar reports whether the algorithm computes lambda* and the
// MRT allotment first, so that their time is part of its run time.
func usesLambdaStar(algorithm string) bool {
	switch algorithm {
	case emoldable.AlgGang, emoldable.AlgSequential:
		return false
	}
	return true
}

// moldableCell schedules the cell's instance with its algorithm, checks
// the schedule and returns the cell's measures (after table.CellHead).
// DEMT's shuffles draw from the cell's policy seed.
func moldableCell(ctx context.Context, m *Manifest, cache *instanceCache, c Cell) (store.Row, error) {
	mi, err := cache.moldable(c)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	opts, err := m.moldableOptions()
	if err != nil {
		return nil, err
	}
	opts.Seed = c.PolicySeed
	start := time.Now()
	s, err := mi.instance.Run(c.Policy, opts)
	if err != nil {
		return nil, err
	}
	seconds := time.Since(start).Seconds()
	if usesLambdaStar(c.Policy) {
		seconds += mi.lambdaSeconds
	}
	w := mi.instance.Workload
	// Checking costs O(n log n), nothing beside the algorithms, and turns
	// a scheduling bug into a failed cell instead of a wrong number.
	if err := verify.Moldable(w, s); err != nil {
		return nil, fmt.Errorf("%s: invalid schedule: %w", c.Policy, err)
	}
	var row store.Row
	if m.hasSchedules() {
		row = appendNulls(row, len(grid.MetricColumns()))
	}
	if m.hasCampaigns() {
		row = appendNulls(row, len(mcampaign.CampaignColumns()))
	}
	cmax, sum := s.Makespan(), s.WeightedCompletion(w)
	return append(row,
		store.Int64(int64(len(w.Tasks))), store.Float64(cmax), store.Float64(sum),
		store.Float64(mi.instance.LambdaStar), store.Float64(mi.lpBound),
		store.Float64(cmax/mi.instance.LambdaStar), store.Float64(sum/mi.lpBound),
		store.Float64(seconds),
	), nil
}
