package moldable

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/sweep-sched/sweep/analysis"
	emoldable "github.com/sweep-sched/sweep/engine/moldable"
	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

// ErrNoMeasures is returned by Read when the cells table has no
// moldable measures: the run is not a moldable-task run.
var ErrNoMeasures = errors.New("no moldable measures in the cells table")

// A Cell is one successful moldable cell: an algorithm's schedule
// of one instance, with the instance's lower bounds.
type Cell struct {
	Generator, Workload, Algorithm string
	Instance, Tasks                int64
	Cmax, SumWC                    float64
	CmaxBound, SumWCBound          float64
	RunSeconds                     float64
}

// Read reads the moldable cells of the results directory dir. It
// returns ErrNoMeasures (wrapped) when the table has no rows or no
// moldable measures, and the number of failed cells, which it leaves out.
func Read(dir string) (cells []Cell, failed int, problems []parquet.Problem, err error) {
	names := []string{table.CellID, table.Generator, table.Workload, table.Policy, table.Status, table.Instance,
		table.MoldableTasks, table.MoldableCmax, table.MoldableSumWC, table.MoldableCmaxBound,
		table.MoldableSumWCBound, table.MoldableRunSeconds}
	set, problems, err := parquet.ReadColumns(dir, table.Cells, names)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("reading moldable cells of %s: %w (%w)", dir, ErrNoMeasures, err)
	}
	if set.Rows == 0 {
		// Nothing to tell a moldable run from another: the general
		// analysis reports the empty table.
		return nil, 0, problems, fmt.Errorf("reading moldable cells of %s: %w (%w)", dir, ErrNoMeasures, analysis.ErrNoCells)
	}
	if err := set.SortRows(table.CellID); err != nil {
		return nil, 0, nil, fmt.Errorf("reading moldable cells of %s: %w", dir, err)
	}
	col := set.Column
	for i := range set.Rows {
		if col(table.Status).Strings[i] != table.StatusOK {
			failed++
			continue
		}
		if col(table.MoldableTasks).IsNull(i) {
			continue // a cell of another model in a mixed run
		}
		cells = append(cells, Cell{
			Generator: col(table.Generator).Strings[i], Workload: col(table.Workload).Strings[i],
			Algorithm: col(table.Policy).Strings[i], Instance: col(table.Instance).Int64s[i],
			Tasks: col(table.MoldableTasks).Int64s[i],
			Cmax:  col(table.MoldableCmax).Float64s[i], SumWC: col(table.MoldableSumWC).Float64s[i],
			CmaxBound: col(table.MoldableCmaxBound).Float64s[i], SumWCBound: col(table.MoldableSumWCBound).Float64s[i],
			RunSeconds: col(table.MoldableRunSeconds).Float64s[i],
		})
	}
	if len(cells) == 0 {
		return nil, failed, problems, fmt.Errorf("reading cells of %s: %w", dir, analysis.ErrNoCells)
	}
	return cells, failed, problems, nil
}

// A RatioSummary is a performance ratio over a point's instances: the
// average as the paper computes it (sum of values / sum of lower bounds)
// and the smallest and largest per-instance ratio.
type RatioSummary struct{ Average, Min, Max float64 }

// A Point is one point of seed 002's figures: an algorithm on the
// instances of one generator with one n.
type Point struct {
	Generator string
	Tasks     int64
	Algorithm string
	Instances int
	Cmax      RatioSummary // over lambda*
	SumWC     RatioSummary // over the interval LP
	// RunSecondsMean and RunSecondsMax are the algorithm's own run time
	// (a measurement, machine-dependent).
	RunSecondsMean, RunSecondsMax float64
}

// Result is the analysis of a moldable run.
type Result struct {
	Generators []string // seed 002's workload order, then others by name
	Algorithms []string // the paper's order, then others by name
	Points     []Point
	Claims     []analysis.Claim
	Failed     int
	Problems   []parquet.Problem
}

// workloadOrder is seed 002's order of workloads (its figures).
var workloadOrder = []string{"uniform-weak", "uniform-high", "mixed", "cirne-berman"}

// ShortWorkload returns a moldable generator's name without its family
// prefix ("dutot2004/mixed" is "mixed").
func ShortWorkload(generator string) string {
	return generator[strings.LastIndexByte(generator, '/')+1:]
}

func rankIn(order []string, name string) int {
	if i := slices.Index(order, name); i >= 0 {
		return i
	}
	return len(order)
}

// Summarize groups the cells by generator, n and algorithm and
// checks the paper's claims.
func Summarize(cells []Cell) *Result {
	type key struct {
		generator string
		tasks     int64
		algorithm string
	}
	type acc struct {
		point                  Point
		cmax, cmaxB, sum, sumB float64
		seconds                float64
	}
	groups := map[key]*acc{}
	r := &Result{}
	for _, c := range cells {
		k := key{c.Generator, c.Tasks, c.Algorithm}
		a := groups[k]
		if a == nil {
			a = &acc{point: Point{Generator: c.Generator, Tasks: c.Tasks, Algorithm: c.Algorithm,
				Cmax: RatioSummary{Min: math.Inf(1), Max: math.Inf(-1)}, SumWC: RatioSummary{Min: math.Inf(1), Max: math.Inf(-1)}}}
			groups[k] = a
			if !slices.Contains(r.Generators, c.Generator) {
				r.Generators = append(r.Generators, c.Generator)
			}
			if !slices.Contains(r.Algorithms, c.Algorithm) {
				r.Algorithms = append(r.Algorithms, c.Algorithm)
			}
		}
		p := &a.point
		p.Instances++
		a.cmax, a.cmaxB, a.sum, a.sumB = a.cmax+c.Cmax, a.cmaxB+c.CmaxBound, a.sum+c.SumWC, a.sumB+c.SumWCBound
		p.Cmax.Min, p.Cmax.Max = min(p.Cmax.Min, c.Cmax/c.CmaxBound), max(p.Cmax.Max, c.Cmax/c.CmaxBound)
		p.SumWC.Min, p.SumWC.Max = min(p.SumWC.Min, c.SumWC/c.SumWCBound), max(p.SumWC.Max, c.SumWC/c.SumWCBound)
		a.seconds += c.RunSeconds
		p.RunSecondsMax = max(p.RunSecondsMax, c.RunSeconds)
	}
	slices.SortFunc(r.Generators, func(a, b string) int {
		return cmp.Or(cmp.Compare(rankIn(workloadOrder, ShortWorkload(a)), rankIn(workloadOrder, ShortWorkload(b))), cmp.Compare(a, b))
	})
	algOrder := emoldable.Algorithms()
	slices.SortFunc(r.Algorithms, func(a, b string) int {
		return cmp.Or(cmp.Compare(rankIn(algOrder, a), rankIn(algOrder, b)), cmp.Compare(a, b))
	})
	for _, a := range groups {
		p := a.point
		p.Cmax.Average, p.SumWC.Average = a.cmax/a.cmaxB, a.sum/a.sumB
		p.RunSecondsMean = a.seconds / float64(p.Instances)
		r.Points = append(r.Points, p)
	}
	slices.SortFunc(r.Points, func(a, b Point) int {
		return cmp.Or(
			cmp.Compare(slices.Index(r.Generators, a.Generator), slices.Index(r.Generators, b.Generator)),
			cmp.Compare(a.Tasks, b.Tasks),
			cmp.Compare(slices.Index(r.Algorithms, a.Algorithm), slices.Index(r.Algorithms, b.Algorithm)))
	})
	r.Claims = checkClaims(r, cells)
	return r
}

// Sizes returns the n of the generator's points, ascending.
func (r *Result) Sizes(generator string) []int64 {
	var sizes []int64
	for _, p := range r.Points {
		if p.Generator == generator && !slices.Contains(sizes, p.Tasks) {
			sizes = append(sizes, p.Tasks)
		}
	}
	return sizes
}

// Point returns the point of generator, n and algorithm.
func (r *Result) Point(generator string, tasks int64, algorithm string) (Point, bool) {
	for _, p := range r.Points {
		if p.Generator == generator && p.Tasks == tasks && p.Algorithm == algorithm {
			return p, true
		}
	}
	return Point{}, false
}

// Analyze reads and summarises a moldable run.
func Analyze(dir string) (*Result, error) {
	cells, failed, problems, err := Read(dir)
	if err != nil {
		return nil, err
	}
	r := Summarize(cells)
	r.Failed, r.Problems = failed, problems
	return r, nil
}

var (
	moldableSchema = store.Schema{Table: "moldable", Columns: []store.Column{
		{Name: "generator", Type: store.TypeString}, {Name: "tasks", Type: store.TypeInt64},
		{Name: "algorithm", Type: store.TypeString}, {Name: "instances", Type: store.TypeInt64},
		{Name: "cmax_ratio_avg", Type: store.TypeFloat64}, {Name: "cmax_ratio_min", Type: store.TypeFloat64},
		{Name: "cmax_ratio_max", Type: store.TypeFloat64}, {Name: "sum_wc_ratio_avg", Type: store.TypeFloat64},
		{Name: "sum_wc_ratio_min", Type: store.TypeFloat64}, {Name: "sum_wc_ratio_max", Type: store.TypeFloat64},
		{Name: "run_seconds_mean", Type: store.TypeFloat64}, {Name: "run_seconds_max", Type: store.TypeFloat64},
	}}
)

// Tables returns the moldable table, one row per point; the paper's
// claims go to the claims table of every study (FidelityClaims).
func (r *Result) Tables() []analysis.Table {
	points := analysis.Table{Schema: moldableSchema}
	for _, p := range r.Points {
		points.Rows = append(points.Rows, store.Row{
			store.String(p.Generator), store.Int64(p.Tasks), store.String(p.Algorithm), store.Int64(int64(p.Instances)),
			store.Float64(p.Cmax.Average), store.Float64(p.Cmax.Min), store.Float64(p.Cmax.Max),
			store.Float64(p.SumWC.Average), store.Float64(p.SumWC.Min), store.Float64(p.SumWC.Max),
			store.Float64(p.RunSecondsMean), store.Float64(p.RunSecondsMax),
		})
	}
	return []analysis.Table{points}
}
