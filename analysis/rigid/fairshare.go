package rigid

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/sweep-sched/sweep/analysis"
	mrigid "github.com/sweep-sched/sweep/model/rigid"
	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

// The fair-share policies whose cells seed 003's tables compare, in the
// paper's column order, and the baseline printed beside them: the model
// names them.
const (
	RelShare   = mrigid.PolicyRelShare
	TradeoffFS = mrigid.PolicyTradeoffFS
	FCFSEasy   = mrigid.PolicyFCFSEasy
)

// Cell is the measures of one fair-share cell (one trace month
// under one estimate variant and policy).
type Cell struct {
	ID       string
	Trace    string // the workload label without its variant suffix
	Variant  string // T or R
	Month    string // YYYY-MM
	Platform string
	Policy   string
	Failed   bool
	Error    string

	Jobs, Users     int64
	DemandPercent   float64
	TopUser         int64
	TopUserDev      float64
	TotalAbsDev     float64
	WaitMeanHours   float64
	WaitMaxHours    float64
	WaitP99Hours    float64
	SlowdownTau10   float64
	PlacementsTotal int64
}

// Result is the analysis of a fair-share run.
type Result struct {
	Cells []Cell
	// devs maps a cell id and user to the user's dev, and demands the
	// same to the user's demand (processor-hours), when the run recorded
	// the users table.
	devs, demands map[string]map[int64]float64
	Problems      []parquet.Problem
}

// IsRun reports whether the results directory holds fair-share
// cells (seed 003), whose measures differ from the DAG and campaign ones.
func IsRun(dir string) bool {
	set, _, err := parquet.ReadColumns(dir, table.Cells, []string{table.FairTotalAbsDev})
	return err == nil && set.Rows > 0
}

// Analyze reads the fair-share cells (and users, when recorded)
// of the results directory dir.
func Analyze(dir string) (*Result, error) {
	names := []string{table.CellID, table.Workload, table.Platform, table.Policy, table.Status, table.Error,
		table.FairMonth, table.FairJobs, table.FairUsers, table.FairDemandPercent, table.FairTopUser,
		table.FairTopUserDev, table.FairTotalAbsDev, table.FairWaitMeanHours, table.FairWaitMaxHours,
		table.FairWaitP99Hours, table.FairSlowdownTau10, table.FairPlacements}
	set, problems, err := parquet.ReadColumns(dir, table.Cells, names)
	if err != nil {
		return nil, fmt.Errorf("reading fair-share cells: %w", err)
	}
	if set.Rows == 0 {
		return nil, fmt.Errorf("reading fair-share cells of %s: %w", dir, analysis.ErrNoCells)
	}
	if err := set.SortRows(table.CellID); err != nil {
		return nil, fmt.Errorf("reading fair-share cells of %s: %w", dir, err)
	}
	r := &Result{Problems: problems}
	str := func(name string, i int) string { return set.Column(name).Strings[i] }
	integer := func(name string, i int) int64 {
		if c := set.Column(name); !c.IsNull(i) {
			return c.Int64s[i]
		}
		return 0
	}
	float := func(name string, i int) float64 {
		if c := set.Column(name); !c.IsNull(i) {
			return c.Float64s[i]
		}
		return math.NaN()
	}
	seen := map[string]int{}
	jobs := set.Column(table.FairJobs)
	for i := range set.Rows {
		if str(table.Status, i) == table.StatusOK && jobs.IsNull(i) {
			// A cell of another model (a grid or campaign workload in a
			// mixed run) has no fair-share measures: its own analysis
			// reads it.
			continue
		}
		label := str(table.Workload, i)
		trace, variant := label, ""
		if k := strings.LastIndexByte(label, '-'); k > 0 {
			trace, variant = label[:k], label[k+1:]
		}
		c := Cell{
			ID: str(table.CellID, i), Trace: trace, Variant: variant, Platform: str(table.Platform, i),
			Policy: str(table.Policy, i), Failed: str(table.Status, i) == table.StatusFailed, Error: str(table.Error, i),
			Jobs: integer(table.FairJobs, i), Users: integer(table.FairUsers, i), DemandPercent: float(table.FairDemandPercent, i),
			TopUser: integer(table.FairTopUser, i), TopUserDev: float(table.FairTopUserDev, i), TotalAbsDev: float(table.FairTotalAbsDev, i),
			WaitMeanHours: float(table.FairWaitMeanHours, i), WaitMaxHours: float(table.FairWaitMaxHours, i),
			WaitP99Hours: float(table.FairWaitP99Hours, i), SlowdownTau10: float(table.FairSlowdownTau10, i),
			PlacementsTotal: integer(table.FairPlacements, i),
		}
		if month := integer(table.FairMonth, i); month > 0 {
			c.Month = fmt.Sprintf("%04d-%02d", month/100, month%100)
		}
		// A retried cell leaves its failed row behind: the ok row wins.
		if k, ok := seen[c.ID]; ok {
			if r.Cells[k].Failed && !c.Failed {
				r.Cells[k] = c
			}
			continue
		}
		seen[c.ID] = len(r.Cells)
		r.Cells = append(r.Cells, c)
	}
	slices.SortFunc(r.Cells, func(a, b Cell) int {
		return cmp.Or(cmp.Compare(a.Trace, b.Trace), cmp.Compare(a.Month, b.Month), cmp.Compare(a.Variant, b.Variant), cmp.Compare(a.Policy, b.Policy))
	})
	devs, demands, userProblems, err := readUsers(dir)
	if err != nil {
		return nil, err
	}
	r.devs, r.demands = devs, demands
	r.Problems = append(r.Problems, userProblems...)
	return r, nil
}

// Cell returns the successful cell of a trace month, variant and policy.
func (r *Result) Cell(trace, month, variant, policy string) *Cell {
	for i := range r.Cells {
		c := &r.Cells[i]
		if !c.Failed && c.Trace == trace && c.Month == month && c.Variant == variant && c.Policy == policy {
			return c
		}
	}
	return nil
}

// DevOf returns the dev of user u in a cell, from the users table, or NaN.
func (r *Result) DevOf(c *Cell, u int64) float64 {
	if c == nil {
		return math.NaN()
	}
	if u == c.TopUser {
		return c.TopUserDev
	}
	if d, ok := r.devs[c.ID][u]; ok {
		return d
	}
	return math.NaN()
}

// HasUsers reports whether the run recorded the users table.
func (r *Result) HasUsers() bool { return r.devs != nil }

// Dev returns the dev of user u in the successful cell of a trace month,
// variant and policy; NaN when there is no such cell or row.
func (r *Result) Dev(trace, month, variant, policy string, u int64) float64 {
	return r.DevOf(r.Cell(trace, month, variant, policy), u)
}

// TopUsers returns up to n users of a trace month by demand, largest
// first (the lower id on a tie), from the users table.
func (r *Result) TopUsers(trace, month string, n int) []int64 {
	c := r.AnyCell(trace, month)
	if c == nil {
		return nil
	}
	demand := r.demands[c.ID]
	var users []int64
	for u, d := range demand {
		if d > 0 {
			users = append(users, u)
		}
	}
	slices.SortFunc(users, func(a, b int64) int { return cmp.Or(cmp.Compare(demand[b], demand[a]), cmp.Compare(a, b)) })
	return users[:min(n, len(users))]
}

// Traces returns the traces of the run, by name.
func (r *Result) Traces() []string {
	var out []string
	for _, c := range r.Cells {
		if !slices.Contains(out, c.Trace) {
			out = append(out, c.Trace)
		}
	}
	return out
}

// Months returns a trace's months, ascending.
func (r *Result) Months(trace string) []string {
	var out []string
	for _, c := range r.Cells {
		if c.Trace == trace && c.Month != "" && !slices.Contains(out, c.Month) {
			out = append(out, c.Month)
		}
	}
	slices.Sort(out)
	return out
}

// AnyCell returns some successful cell of a trace month (the workload
// columns are the same in all).
func (r *Result) AnyCell(trace, month string) *Cell {
	for i := range r.Cells {
		if c := &r.Cells[i]; !c.Failed && c.Trace == trace && c.Month == month {
			return c
		}
	}
	return nil
}

// Claims checks seed 003's qualitative claims (design note fairshare.md,
// section 6) that the run's cells can decide; a claim whose cells are
// missing is left out.
func (r *Result) Claims() []analysis.Claim {
	var claims []analysis.Claim
	if months := r.Months("kth"); len(months) > 0 {
		holds, complete := true, true
		var worst []string
		for _, v := range []string{"T", "R"} {
			var rel, trade float64
			for _, month := range months {
				a, b := r.Cell("kth", month, v, RelShare), r.Cell("kth", month, v, TradeoffFS)
				if a == nil || b == nil {
					complete = false
					break
				}
				rel += a.TotalAbsDev
				trade += b.TotalAbsDev
				if trade >= rel {
					holds = false
					worst = append(worst, month+" "+v)
				}
			}
		}
		if complete {
			detail := "every month, both variants"
			if !holds {
				detail = "not in " + strings.Join(worst, ", ")
			}
			claims = append(claims, analysis.Claim{Workload: "kth", Text: "Tradeoff-fs lowers the running total |dev| in every KTH month", Holds: holds, Evidence: detail})
		}
	}
	if a, b := r.Cell("kth", "1996-10", "T", RelShare), r.Cell("kth", "1996-10", "T", TradeoffFS); a != nil && b != nil {
		da, db := r.DevOf(a, 3), r.DevOf(b, 3)
		claims = append(claims, analysis.Claim{Workload: "kth", Text: "KTH 10/96 user 3 is heavily under-share under RelShare, much less under Tradeoff-fs (T)",
			Holds: da < 0 && math.Abs(db) < math.Abs(da)/2, Evidence: fmt.Sprintf("dev %.0f vs %.0f", da, db)})
	}
	for _, v := range []string{"T", "R"} {
		if a, b := r.Cell("kth", "1996-11", v, RelShare), r.Cell("kth", "1996-11", v, TradeoffFS); a != nil && b != nil {
			da, db := r.DevOf(a, 6), r.DevOf(b, 6)
			claims = append(claims, analysis.Claim{Workload: "kth", Text: fmt.Sprintf("KTH 11/96 user 6 (mixed job sizes) does worse under Tradeoff-fs (%s)", v),
				Holds: db < da, Evidence: fmt.Sprintf("dev %.0f under RelShare, %.0f under Tradeoff-fs", da, db)})
		}
	}
	if a, b := r.Cell("sdsc", "2000-06", "T", RelShare), r.Cell("sdsc", "2000-06", "T", TradeoffFS); a != nil && b != nil {
		claims = append(claims, analysis.Claim{Workload: "sdsc", Text: "Tradeoff-fs cuts the maximum wait sharply on SDSC 06/00 (T; the paper: 94.2 h to 38.9 h)",
			Holds: b.WaitMaxHours < 0.75*a.WaitMaxHours, Evidence: fmt.Sprintf("%.1f h to %.1f h", a.WaitMaxHours, b.WaitMaxHours)})
	}
	return claims
}

// readUsers reads each user's dev and demand by cell id and SWF user id
// from the users table (nil maps without one). It reads part by part: a
// run resumed across the change of user from int64 to string has parts of
// both types, which one ReadColumns refuses.
func readUsers(dir string) (devs, demands map[string]map[int64]float64, problems []parquet.Problem, err error) {
	parts, problems, err := parquet.ListParts(dir, table.Users)
	if err != nil || len(parts) == 0 {
		return nil, nil, problems, err
	}
	devs, demands = map[string]map[int64]float64{}, map[string]map[int64]float64{}
	for _, part := range parts {
		users, err := parquet.ReadPart(part.Path, []string{table.CellID, table.UserID, table.UserDev, table.UserDemand})
		if err != nil {
			problems = append(problems, parquet.Problem{Path: part.Path, Err: err})
			continue
		}
		for i := range users.Rows {
			id := users.Column(table.CellID).Strings[i]
			if devs[id] == nil {
				devs[id], demands[id] = map[int64]float64{}, map[int64]float64{}
			}
			u, err := swfUser(users.Column(table.UserID), i)
			if err != nil {
				return nil, nil, nil, fmt.Errorf("reading %s: %w", part.Path, err)
			}
			devs[id][u] = users.Column(table.UserDev).Float64s[i]
			demands[id][u] = users.Column(table.UserDemand).Float64s[i]
		}
	}
	return devs, demands, problems, nil
}

// swfUser returns the SWF user id of row i of the users table's user
// column: "u<id>" (swf.UserName), or the bare integer of results written
// before the column became a string.
func swfUser(c *parquet.ColumnData, i int) (int64, error) {
	if c.Type == store.TypeInt64 {
		return c.Int64s[i], nil
	}
	name := c.Strings[i]
	id, err := strconv.ParseInt(strings.TrimPrefix(name, "u"), 10, 64)
	if err != nil || !strings.HasPrefix(name, "u") {
		return 0, fmt.Errorf("user %q in row %d: want u and an SWF user id, e.g. u12", name, i)
	}
	return id, nil
}
