package rigid

import (
	"math"
	"slices"

	"github.com/sweep-sched/sweep/model/rigid/fairness"
	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/table"
)

// hourSeconds converts the simulator's seconds to the paper's hours.
const hourSeconds = 3600.0

// A measure is one column of a rigid cell with the getter that fills it:
// the one declaration of the model's measures (Model.Measures,
// Outcome.Measure).
type measure struct {
	table.Measure
	value func(o *Outcome, m *fairness.Month) store.Value
}

// measures are a rigid cell's measures in table order: the month
// simulated, its workload (seed 003's Table I), the fair-share deviation
// (Tables III-VII), waits and slowdowns (Table IX) and the planner's work.
// None is ranked: seed 003 compares them with the paper, not by paired
// tests. Built once: every cell's Measure reads them.
var measures = declareMeasures()

func declareMeasures() []measure {
	integer := func(name, unit, doc string, value func(o *Outcome, m *fairness.Month) int64) measure {
		return measure{table.Measure{Name: name, Integer: true, Unit: unit, Doc: doc},
			func(o *Outcome, m *fairness.Month) store.Value { return store.Int64(value(o, m)) }}
	}
	float := func(name, unit, doc string, value func(o *Outcome, m *fairness.Month) float64) measure {
		return measure{table.Measure{Name: name, Unit: unit, Doc: doc},
			func(o *Outcome, m *fairness.Month) store.Value { return store.Float64(value(o, m)) }}
	}
	hours := func(seconds float64) float64 { return seconds / hourSeconds }
	return []measure{
		integer(table.FairMonth, "yyyymm", "the month simulated (UTC); 0 for a whole workload",
			func(o *Outcome, _ *fairness.Month) int64 { return o.Period }),
		integer(table.FairJobs, "jobs", "jobs measured in the month",
			func(_ *Outcome, m *fairness.Month) int64 { return int64(m.Jobs) }),
		integer(table.FairUsers, "users", "users with a job in the month",
			func(_ *Outcome, m *fairness.Month) int64 { return int64(m.Users) }),
		float(table.FairDemandProcHours, "processor-hours", "work submitted in the month",
			func(_ *Outcome, m *fairness.Month) float64 { return m.DemandProcHours() }),
		float(table.FairDemandPercent, "percent", "work submitted as a share of the cluster's capacity in the month",
			func(_ *Outcome, m *fairness.Month) float64 { return m.DemandPercent() }),
		float(table.FairTotalAbsDev, "processor-hours", "sum over users of the absolute fair-share deviation",
			func(_ *Outcome, m *fairness.Month) float64 { return m.TotalAbsDevProcHours }),
		integer(table.FairTopUser, "SWF user id", "the user with the largest demand",
			func(_ *Outcome, m *fairness.Month) int64 { return m.TopUser }),
		float(table.FairTopUserDemand, "processor-hours", "the top user's demand",
			func(_ *Outcome, m *fairness.Month) float64 { return float64(m.TopUserDemandProcSeconds) / hourSeconds }),
		float(table.FairTopUserDev, "processor-hours", "the top user's fair-share deviation",
			func(_ *Outcome, m *fairness.Month) float64 { return m.DevOf(m.TopUser) }),
		float(table.FairWaitMeanHours, "hours", "mean wait",
			func(_ *Outcome, m *fairness.Month) float64 { return hours(m.MeanWaitSeconds) }),
		float(table.FairWaitMaxHours, "hours", "longest wait",
			func(_ *Outcome, m *fairness.Month) float64 { return hours(m.MaxWaitSeconds) }),
		float(table.FairWaitP99Hours, "hours", "99th percentile of the waits",
			func(_ *Outcome, m *fairness.Month) float64 { return hours(m.P99WaitSeconds) }),
		float(table.FairSlowdownTau10, "ratio", "mean bounded slowdown, tau = 10 s",
			func(_ *Outcome, m *fairness.Month) float64 { return m.MeanSlowdownTau10 }),
		float(table.FairSlowdownTau60, "ratio", "mean bounded slowdown, tau = 60 s",
			func(_ *Outcome, m *fairness.Month) float64 { return m.MeanSlowdownTau60 }),
		float(table.FairSlowdown, "ratio", "mean slowdown",
			func(_ *Outcome, m *fairness.Month) float64 { return m.MeanSlowdown }),
		integer(table.FairTwSeconds, "seconds", "Tradeoff-fs's starvation threshold Tw",
			func(o *Outcome, _ *fairness.Month) int64 { return o.Schedule.TwSeconds }),
		integer(table.FairPlacements, "placements", "placements the planner tried",
			func(o *Outcome, _ *fairness.Month) int64 { return o.Schedule.Stats.Placements }),
		integer(table.FairBudgetExhausted, "searches", "searches that ran out of their placement budget",
			func(o *Outcome, _ *fairness.Month) int64 { return o.Schedule.Stats.BudgetExhausted }),
		integer(table.FairDroppedWideJobs, "jobs", "jobs wider than the cluster, left out",
			func(o *Outcome, _ *fairness.Month) int64 { return int64(o.DroppedWide) }),
		integer(table.FairRequestFromRun, "jobs", "jobs whose requested time was taken from their run time",
			func(o *Outcome, _ *fairness.Month) int64 { return int64(o.RequestFromRun) }),
		integer(table.FairWarmUpJobs, "jobs", "jobs before the measured window",
			func(o *Outcome, _ *fairness.Month) int64 { return int64(o.WarmUpJobs) }),
		float("offered_load_target", "ratio", "the cell's load (rigidload: the measured jobs' processor-seconds over the machine's in their span); 0 at the recorded arrivals",
			func(o *Outcome, _ *fairness.Month) float64 { return o.TargetLoad }),
		float("offered_load_achieved", "ratio", "the measured jobs' offered load as simulated (submit times in whole seconds); NaN when they span no time",
			func(o *Outcome, _ *fairness.Month) float64 { return o.AchievedLoad }),
		float("proc_utilisation", "ratio", "the measured jobs' processor-seconds over the machine's from their first submit to their last end",
			func(o *Outcome, _ *fairness.Month) float64 { return o.stats().utilisation }),
		integer("makespan_seconds", "seconds", "from the measured jobs' first submit to their last end",
			func(o *Outcome, _ *fairness.Month) int64 { return o.stats().makespanSeconds }),
		lower(float("bsld_mean", "ratio", "mean bounded slowdown max(1, (wait + run) / max(run, 10 s)) of the measured jobs",
			func(o *Outcome, _ *fairness.Month) float64 { return o.stats().bsldMean })),
		lower(float("bsld_p95", "ratio", "95th percentile (nearest rank) of the measured jobs' bounded slowdowns, tau = 10 s",
			func(o *Outcome, _ *fairness.Month) float64 { return o.stats().bsldP95 })),
		lower(float("wait_mean_seconds", "seconds", "mean wait of the measured jobs",
			func(o *Outcome, _ *fairness.Month) float64 { return o.stats().waitMeanSeconds })),
		lower(float("wait_max_seconds", "seconds", "longest wait of the measured jobs",
			func(o *Outcome, _ *fairness.Month) float64 { return o.stats().waitMaxSeconds })),
		lower(float("response_mean_seconds", "seconds", "mean response (wait + run) of the measured jobs",
			func(o *Outcome, _ *fairness.Month) float64 { return o.stats().responseMeanSeconds })),
		float("util_memory", "ratio", "on a platform of nodes, the measured jobs' memory-seconds held over the machine's from their first submit to their last end; NaN on processors or without memory",
			func(o *Outcome, _ *fairness.Month) float64 {
				return o.resourceUtilisation(func(_, mem, _ float64) float64 { return mem })
			}),
		float("util_gpus", "ratio", "on a platform of nodes, the measured jobs' GPU-seconds held over the machine's from their first submit to their last end; NaN on processors or without GPUs",
			func(o *Outcome, _ *fairness.Month) float64 {
				return o.resourceUtilisation(func(_, _, gpus float64) float64 { return gpus })
			}),
	}
}

// lower marks a measure as better lower.
func lower(m measure) measure {
	m.Better = table.LowerIsBetter
	return m
}

// jobStats are the load-sweep measures of the measured jobs that started.
type jobStats struct {
	utilisation                                                             float64
	makespanSeconds                                                         int64
	bsldMean, bsldP95, waitMeanSeconds, waitMaxSeconds, responseMeanSeconds float64
}

// stats computes the outcome's jobStats once.
func (o *Outcome) stats() *jobStats {
	if o.jobStats != nil {
		return o.jobStats
	}
	w, s := o.Workload, o.Schedule
	st := &jobStats{}
	var bslds []float64
	var work, waits, responses float64
	first, last := int64(math.MaxInt64), int64(math.MinInt64)
	for j := range w.Jobs {
		if !w.Measured(j) || s.StartSeconds[j] < 0 {
			continue
		}
		job := &w.Jobs[j]
		wait, run := s.StartSeconds[j]-job.SubmitSeconds, o.runSeconds(j)
		bslds = append(bslds, boundedSlowdown(wait, run))
		work += float64(int64(job.Procs) * run)
		waits += float64(wait)
		responses += float64(wait + run)
		st.waitMaxSeconds = max(st.waitMaxSeconds, float64(wait))
		first, last = min(first, job.SubmitSeconds), max(last, s.EndSeconds[j])
	}
	o.jobStats = st
	n := float64(len(bslds))
	if n == 0 {
		nan := math.NaN()
		*st = jobStats{utilisation: nan, bsldMean: nan, bsldP95: nan, waitMeanSeconds: nan, waitMaxSeconds: nan, responseMeanSeconds: nan}
		return st
	}
	st.makespanSeconds = last - first
	st.utilisation = work / (float64(w.Procs) * float64(max(st.makespanSeconds, 1)))
	st.waitMeanSeconds, st.responseMeanSeconds = waits/n, responses/n
	var sum float64
	for _, b := range bslds {
		sum += b
	}
	st.bsldMean = sum / n
	slices.Sort(bslds)
	st.bsldP95 = bslds[int(math.Ceil(0.95*n))-1]
	return st
}
