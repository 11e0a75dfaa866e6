package grid

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"slices"
	"strconv"

	"github.com/sweep-sched/sweep/store/table"

	gridengine "github.com/sweep-sched/sweep/engine/grid"
	"github.com/sweep-sched/sweep/internal/radix"
)

// JobMetrics are the per-job responsiveness metrics of seed 004 Sec. 3.1
// (DESIGN.md section 3). Response is measured from arrival, not first start.
type JobMetrics struct {
	ResponseTicks int64   // finish - arrival
	SLR           float64 // response / critical path
	Stretch       float64 // response / volume
	Speedup       float64 // volume / response
}

// ComputeJobMetrics returns the metrics of one job, or an error naming the
// field that makes them undefined (see ValidateJobOutcome).
func ComputeJobMetrics(job gridengine.JobOutcome) (JobMetrics, error) {
	if err := ValidateJobOutcome(job); err != nil {
		return JobMetrics{}, err
	}
	return jobMetrics(job), nil
}

// jobMetrics assumes a validated job, so every divisor is at least 1.
func jobMetrics(job gridengine.JobOutcome) JobMetrics {
	response := job.FinishTick - job.ArrivalTick
	return JobMetrics{
		ResponseTicks: response,
		SLR:           float64(response) / float64(job.CriticalPathTicks),
		Stretch:       float64(response) / float64(job.VolumeCoreTicks),
		Speedup:       float64(job.VolumeCoreTicks) / float64(response),
	}
}

// ValidateJobOutcome reports whether a job outcome can be measured: ticks
// are non-negative and ordered arrival <= start < finish, and volume and
// critical path are at least 1 (every task runs for at least one tick), so
// no metric divides by zero.
func ValidateJobOutcome(job gridengine.JobOutcome) error {
	switch {
	case job.ArrivalTick < 0:
		return fmt.Errorf("ArrivalTick = %d, want >= 0", job.ArrivalTick)
	case job.StartTick < job.ArrivalTick:
		return fmt.Errorf("StartTick = %d is before ArrivalTick = %d", job.StartTick, job.ArrivalTick)
	case job.FinishTick <= job.StartTick:
		return fmt.Errorf("FinishTick = %d, want > StartTick = %d", job.FinishTick, job.StartTick)
	case job.VolumeCoreTicks < 1:
		return fmt.Errorf("VolumeCoreTicks = %d, want >= 1", job.VolumeCoreTicks)
	case job.CriticalPathTicks < 1:
		return fmt.Errorf("CriticalPathTicks = %d, want >= 1", job.CriticalPathTicks)
	}
	return nil
}

// ScheduleMetrics are the per-schedule metrics of DESIGN.md section 3. The
// JSON names are the metric keys of DESIGN.md section 6 and the Parquet
// column names; MetricColumns lists them in order.
//
// The standard deviations are sample deviations (divisor n-1). For a
// schedule of one job they are undefined and set to NaN rather than 0,
// because 0 would claim perfect fairness; MarshalJSON writes NaN as null.
type ScheduleMetrics struct {
	MakespanTicks int64   `json:"makespan"`    // last finish, from tick 0
	Flow          float64 `json:"flow"`        // jobs per tick: jobs / makespan
	Utilisation   float64 `json:"utilisation"` // fraction 0..1: volume_total / (makespan x platform cores)
	PeakInFlight  int64   `json:"peak_in_flight"`

	// CumulativeCompletion is the sum over jobs of
	// (1 + base - finish) x volume, computed exactly and rounded once.
	// Its value at another base follows from volume_total, see
	// RebaseCumulativeCompletion.
	CumulativeCompletion float64 `json:"cumulative_completion"`

	SLRMean     float64 `json:"slr_mean"`
	SLRMax      float64 `json:"slr_max"`
	SLRSD       float64 `json:"slr_sd"`
	StretchMean float64 `json:"stretch_mean"`
	StretchMax  float64 `json:"stretch_max"`
	StretchSD   float64 `json:"stretch_sd"`
	SpeedupMean float64 `json:"speedup_mean"`
	SpeedupMin  float64 `json:"speedup_min"`
	SpeedupSD   float64 `json:"speedup_sd"`

	VolumeTotalCoreTicks int64 `json:"volume_total"` // sum of job volumes
	Jobs                 int64 `json:"jobs"`
}

// ComputeMetrics measures a schedule of jobs on a platform of platformCores
// cores, with cumulative completion taken at baseTicks (DESIGN.md uses the
// largest makespan among the schedules compared; a base below some finishes
// is allowed and gives those jobs negative terms).
//
// It returns an error when there are no jobs, platformCores < 1, a job fails
// ValidateJobOutcome (the error names the job's index), or the total volume
// overflows int64.
func ComputeMetrics(jobs []gridengine.JobOutcome, platformCores int, baseTicks int64) (ScheduleMetrics, error) {
	measured, err := MeasureJobs(jobs)
	if err != nil {
		return ScheduleMetrics{}, fmt.Errorf("computing schedule metrics: %w", err)
	}
	return ComputeMetricsOf(jobs, measured, platformCores, baseTicks)
}

// MeasureJobs returns every job's metrics, in job order, or an error naming
// the first job that fails ValidateJobOutcome. The runner measures a
// schedule's jobs once and gives the result to ComputeMetricsOf, the jobs
// table and VolumeDeciles.
func MeasureJobs(jobs []gridengine.JobOutcome) ([]JobMetrics, error) {
	out := make([]JobMetrics, len(jobs))
	for i, job := range jobs {
		if err := ValidateJobOutcome(job); err != nil {
			return nil, fmt.Errorf("job %d: %w", i, err)
		}
		out[i] = jobMetrics(job)
	}
	return out, nil
}

// ComputeMetricsOf is ComputeMetrics for jobs already measured by
// MeasureJobs (measured[i] belongs to jobs[i]).
func ComputeMetricsOf(jobs []gridengine.JobOutcome, measured []JobMetrics, platformCores int, baseTicks int64) (ScheduleMetrics, error) {
	if len(jobs) == 0 {
		return ScheduleMetrics{}, errors.New("computing schedule metrics: no jobs, want at least 1")
	}
	if len(measured) != len(jobs) {
		return ScheduleMetrics{}, fmt.Errorf("computing schedule metrics: %d measured jobs for %d jobs", len(measured), len(jobs))
	}
	if platformCores < 1 {
		return ScheduleMetrics{}, fmt.Errorf("computing schedule metrics: platform cores = %d, want >= 1", platformCores)
	}
	n := len(jobs)
	slr := make([]float64, n)
	stretch := make([]float64, n)
	speedup := make([]float64, n)
	starts := make([]int64, n)
	finishes := make([]int64, n)
	var (
		makespan, volumeTotal int64
		// finishVolume is the sum of finish x volume as an unsigned 128-bit
		// integer (hi, lo). It cannot overflow: it is at most
		// makespan x volumeTotal < 2^63 x 2^63.
		finishVolumeHi, finishVolumeLo uint64
	)
	for i, job := range jobs {
		m := measured[i]
		slr[i], stretch[i], speedup[i] = m.SLR, m.Stretch, m.Speedup
		starts[i], finishes[i] = job.StartTick, job.FinishTick
		makespan = max(makespan, job.FinishTick)
		if volumeTotal > math.MaxInt64-job.VolumeCoreTicks {
			return ScheduleMetrics{}, fmt.Errorf("computing schedule metrics: job %d: total volume exceeds %d core-ticks", i, int64(math.MaxInt64))
		}
		volumeTotal += job.VolumeCoreTicks
		hi, lo := bits.Mul64(uint64(job.FinishTick), uint64(job.VolumeCoreTicks))
		var carry uint64
		finishVolumeLo, carry = bits.Add64(finishVolumeLo, lo, 0)
		finishVolumeHi += hi + carry
	}

	metrics := ScheduleMetrics{
		MakespanTicks:        makespan,
		Flow:                 float64(n) / float64(makespan),
		Utilisation:          float64(volumeTotal) / (float64(makespan) * float64(platformCores)),
		PeakInFlight:         peakInFlight(starts, finishes),
		CumulativeCompletion: cumulativeCompletion(baseTicks, volumeTotal, finishVolumeHi, finishVolumeLo),
		VolumeTotalCoreTicks: volumeTotal,
		Jobs:                 int64(n),
	}
	metrics.SLRMean, metrics.SLRSD = meanSampleSD(slr)
	metrics.StretchMean, metrics.StretchSD = meanSampleSD(stretch)
	metrics.SpeedupMean, metrics.SpeedupSD = meanSampleSD(speedup)
	metrics.SLRMax = slices.Max(slr)
	metrics.StretchMax = slices.Max(stretch)
	metrics.SpeedupMin = slices.Min(speedup)
	return metrics, nil
}

// peakInFlight returns the largest number of jobs with start <= t < finish
// over all ticks t. It sorts starts and finishes in place.
func peakInFlight(starts, finishes []int64) int64 {
	buf := make([]int64, len(starts))
	sortTicks(starts, buf)
	sortTicks(finishes, buf)
	var inFlight, peak int64
	f := 0
	for _, start := range starts {
		// A job finishing at the tick another starts has left already.
		for finishes[f] <= start {
			inFlight--
			f++
		}
		inFlight++
		peak = max(peak, inFlight)
	}
	return peak
}

// sortTicks sorts ticks in place; buf is scratch space of the same
// length. The starts and finishes of a paper-scale schedule (10,000 jobs,
// ticks below 2^33) take three radix passes, and comparison sorts of them
// took 3% of seed 004's run.
func sortTicks(ticks, buf []int64) {
	if len(ticks) < 256 || slices.Min(ticks) < 0 {
		slices.Sort(ticks) // short, or a tick below 0: not a schedule's
		return
	}
	if sorted := radix.Sort(ticks, buf); &sorted[0] != &ticks[0] {
		copy(ticks, sorted)
	}
}

// cumulativeCompletion evaluates sum (1 + base - finish_j) x volume_j as
// (1 + base) x volumeTotal - sum finish_j x volume_j in exact integers and
// rounds once to the nearest float64; the terms reach 1e18 at paper scale,
// where float64 accumulation would lose whole jobs' contributions.
func cumulativeCompletion(baseTicks, volumeTotal int64, finishVolumeHi, finishVolumeLo uint64) float64 {
	finishVolume := new(big.Int).SetUint64(finishVolumeHi)
	finishVolume.Lsh(finishVolume, 64)
	finishVolume.Or(finishVolume, new(big.Int).SetUint64(finishVolumeLo))
	total := big.NewInt(baseTicks)
	total.Add(total, big.NewInt(1))
	total.Mul(total, big.NewInt(volumeTotal))
	total.Sub(total, finishVolume)
	return roundToFloat64(total)
}

// roundToFloat64 returns the float64 nearest to x (ties to even).
func roundToFloat64(x *big.Int) float64 {
	f, _ := new(big.Float).SetInt(x).Float64()
	return f
}

// RebaseCumulativeCompletion converts a cumulative completion computed at
// fromBase to its value at toBase, using the identity
//
//	CC(toBase) = CC(fromBase) + (toBase - fromBase) x volumeTotal
//
// which holds because every job's term (1 + base - finish) x volume grows by
// volume per tick of base. This lets the analysis put schedules measured at
// their own makespans on a common base. The shift is added exactly and the
// sum rounded once, so the result is within one rounding of the exact value
// whenever cc was.
func RebaseCumulativeCompletion(cc float64, fromBase, toBase, volumeTotal int64) float64 {
	if math.IsNaN(cc) || math.IsInf(cc, 0) {
		return cc
	}
	shift := big.NewInt(toBase)
	shift.Sub(shift, big.NewInt(fromBase))
	shift.Mul(shift, big.NewInt(volumeTotal))
	// Finite float64s lie on a grid of 2^-1074 below 2^1024 and |shift| <
	// 2^128, so 2200 bits hold cc + shift exactly before the one rounding.
	const exactBits = 2200
	sum := new(big.Float).SetPrec(exactBits).SetFloat64(cc)
	sum.Add(sum, new(big.Float).SetPrec(exactBits).SetInt(shift))
	f, _ := sum.Float64()
	return f
}

// meanSampleSD returns the mean and the sample standard deviation (n-1) of
// xs, NaN for n = 1. It uses the corrected two-pass algorithm of Chan, Golub
// and LeVeque (as gonum's stat.MeanVariance does) in a plain sequential loop:
// gonum sums with assembly on amd64 only, and Go may fuse d*d+ss into an FMA
// on other architectures, either of which would change the last bits of the
// results from one machine to another. The explicit float64 conversions
// forbid fusion.
func meanSampleSD(xs []float64) (mean, sd float64) {
	var sum float64
	for _, x := range xs {
		sum += x
	}
	n := float64(len(xs))
	mean = sum / n
	var squares, compensation float64
	for _, x := range xs {
		d := x - mean
		squares += float64(d * d)
		compensation += d
	}
	variance := (squares - float64(compensation*compensation)/n) / (n - 1)
	return mean, math.Sqrt(variance)
}

// A MetricColumn is one field of ScheduleMetrics as a measure of the
// Parquet cells table and a key of the `simulate` JSON, with its getter:
// the one declaration of the grid model's measures.
type MetricColumn struct {
	table.Measure // Name is the DESIGN.md section 6 key
	// Int returns the value of an Integer column; nil otherwise.
	Int func(*ScheduleMetrics) int64
	// Float returns the value as float64, for every column (integer
	// columns are converted), so statistics can treat all alike.
	Float func(*ScheduleMetrics) float64
}

// Names of the measures that a cell's cumulative completion is re-based
// with (CumulativeCompletionRebase).
const (
	MeasureMakespan             = "makespan"
	MeasureCumulativeCompletion = "cumulative_completion"
	MeasureVolumeTotal          = "volume_total"
)

// MetricColumns returns the columns of ScheduleMetrics in the order of
// DESIGN.md section 6, followed by the descriptive volume_total and jobs.
// Each call returns a new slice, so callers may modify it.
func MetricColumns() []MetricColumn {
	integer := func(name, unit string, better table.Direction, doc string, value func(*ScheduleMetrics) int64) MetricColumn {
		return MetricColumn{
			Measure: table.Measure{Name: name, Integer: true, Unit: unit, Better: better, Doc: doc}, Int: value,
			Float: func(m *ScheduleMetrics) float64 { return float64(value(m)) },
		}
	}
	float := func(name, unit string, better table.Direction, doc string, value func(*ScheduleMetrics) float64) MetricColumn {
		return MetricColumn{Measure: table.Measure{Name: name, Unit: unit, Better: better, Doc: doc}, Float: value}
	}
	lower, higher := table.LowerIsBetter, table.HigherIsBetter
	return []MetricColumn{
		integer(MeasureMakespan, "ticks", lower, "last finish, from tick 0", func(m *ScheduleMetrics) int64 { return m.MakespanTicks }),
		float("flow", "jobs per tick", higher, "jobs / makespan", func(m *ScheduleMetrics) float64 { return m.Flow }),
		float("utilisation", "fraction", higher, "volume / (makespan x cores)", func(m *ScheduleMetrics) float64 { return m.Utilisation }),
		integer("peak_in_flight", "jobs", lower, "most jobs started and not finished at once", func(m *ScheduleMetrics) int64 { return m.PeakInFlight }),
		float(MeasureCumulativeCompletion, "tick x core-ticks", higher, "sum over jobs of (1 + base - finish) x volume",
			func(m *ScheduleMetrics) float64 { return m.CumulativeCompletion }),
		float("slr_mean", "ratio", lower, "mean schedule length ratio (response / critical path)", func(m *ScheduleMetrics) float64 { return m.SLRMean }),
		float("slr_max", "ratio", lower, "worst-case SLR", func(m *ScheduleMetrics) float64 { return m.SLRMax }),
		float("slr_sd", "ratio", lower, "sample SD of SLR", func(m *ScheduleMetrics) float64 { return m.SLRSD }),
		float("stretch_mean", "ticks per core-tick", lower, "mean stretch (response / volume)", func(m *ScheduleMetrics) float64 { return m.StretchMean }),
		float("stretch_max", "ticks per core-tick", lower, "largest stretch", func(m *ScheduleMetrics) float64 { return m.StretchMax }),
		float("stretch_sd", "ticks per core-tick", lower, "sample SD of stretch", func(m *ScheduleMetrics) float64 { return m.StretchSD }),
		float("speedup_mean", "cores", higher, "mean speedup (volume / response)", func(m *ScheduleMetrics) float64 { return m.SpeedupMean }),
		float("speedup_min", "cores", higher, "smallest speedup", func(m *ScheduleMetrics) float64 { return m.SpeedupMin }),
		float("speedup_sd", "cores", lower, "sample SD of speedup", func(m *ScheduleMetrics) float64 { return m.SpeedupSD }),
		integer(MeasureVolumeTotal, "core-ticks", table.Descriptive, "sum of job volumes", func(m *ScheduleMetrics) int64 { return m.VolumeTotalCoreTicks }),
		integer("jobs", "jobs", table.Descriptive, "jobs of the workload", func(m *ScheduleMetrics) int64 { return m.Jobs }),
	}
}

// MarshalJSON writes the metrics as one object with the keys in
// MetricColumns order. NaN and infinite values (the SDs of a one-job
// schedule) are written as null, which encoding/json cannot do by itself.
func (m ScheduleMetrics) MarshalJSON() ([]byte, error) {
	out := []byte{'{'}
	for i, column := range MetricColumns() {
		if i > 0 {
			out = append(out, ',')
		}
		out = strconv.AppendQuote(out, column.Name)
		out = append(out, ':')
		switch value := column.Float(&m); {
		case column.Integer:
			out = strconv.AppendInt(out, column.Int(&m), 10)
		case math.IsNaN(value) || math.IsInf(value, 0):
			out = append(out, "null"...)
		default:
			out = strconv.AppendFloat(out, value, 'g', -1, 64)
		}
	}
	return append(out, '}'), nil
}
