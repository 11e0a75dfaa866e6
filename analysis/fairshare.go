package analysis

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/sweep-sched/sweep/sweep/store"
	"github.com/sweep-sched/sweep/sweep/store/table"
)

// The fair-share policies whose cells seed 003's tables compare, in the
// paper's column order, and the baseline printed beside them.
const (
	fairRelShare = "relshare"
	fairTradeoff = "tradeoff-fs"
	fairFCFSEasy = "fcfs-easy"
)

// FairShareCell is the measures of one fair-share cell (one trace month
// under one estimate variant and policy).
type FairShareCell struct {
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

// FairShareResult is the analysis of a fair-share run.
type FairShareResult struct {
	Cells []FairShareCell
	// devs maps a cell id and user to the user's dev, and demands the
	// same to the user's demand (processor-hours), when the run recorded
	// the users table.
	devs, demands map[string]map[int64]float64
	Problems      []store.Problem
}

// IsFairShareRun reports whether the results directory holds fair-share
// cells (seed 003), whose measures differ from the DAG and campaign ones.
func IsFairShareRun(dir string) bool {
	set, _, err := store.ReadColumns(dir, table.Cells, []string{table.FairTotalAbsDev})
	return err == nil && set.Rows > 0
}

// AnalyzeFairShare reads the fair-share cells (and users, when recorded)
// of the results directory dir.
func AnalyzeFairShare(dir string) (*FairShareResult, error) {
	names := []string{table.CellID, table.Workload, table.Platform, table.Policy, table.Status, table.Error,
		table.FairMonth, table.FairJobs, table.FairUsers, table.FairDemandPercent, table.FairTopUser,
		table.FairTopUserDev, table.FairTotalAbsDev, table.FairWaitMeanHours, table.FairWaitMaxHours,
		table.FairWaitP99Hours, table.FairSlowdownTau10, table.FairPlacements}
	set, problems, err := store.ReadColumns(dir, table.Cells, names)
	if err != nil {
		return nil, fmt.Errorf("reading fair-share cells: %w", err)
	}
	if set.Rows == 0 {
		return nil, fmt.Errorf("reading fair-share cells of %s: %w", dir, ErrNoCells)
	}
	r := &FairShareResult{Problems: problems}
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
	for i := range set.Rows {
		label := str(table.Workload, i)
		trace, variant := label, ""
		if k := strings.LastIndexByte(label, '-'); k > 0 {
			trace, variant = label[:k], label[k+1:]
		}
		c := FairShareCell{
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
	slices.SortFunc(r.Cells, func(a, b FairShareCell) int {
		return cmp.Or(cmp.Compare(a.Trace, b.Trace), cmp.Compare(a.Month, b.Month), cmp.Compare(a.Variant, b.Variant), cmp.Compare(a.Policy, b.Policy))
	})
	users, userProblems, err := store.ReadColumns(dir, table.Users, []string{table.CellID, table.UserID, table.UserDev, table.UserDemand})
	if err == nil {
		r.Problems = append(r.Problems, userProblems...)
		r.devs, r.demands = map[string]map[int64]float64{}, map[string]map[int64]float64{}
		for i := range users.Rows {
			id := users.Column(table.CellID).Strings[i]
			if r.devs[id] == nil {
				r.devs[id], r.demands[id] = map[int64]float64{}, map[int64]float64{}
			}
			u := users.Column(table.UserID).Int64s[i]
			r.devs[id][u] = users.Column(table.UserDev).Float64s[i]
			r.demands[id][u] = users.Column(table.UserDemand).Float64s[i]
		}
	}
	return r, nil
}

// cell returns the successful cell of a trace month, variant and policy.
func (r *FairShareResult) cell(trace, month, variant, policy string) *FairShareCell {
	for i := range r.Cells {
		c := &r.Cells[i]
		if !c.Failed && c.Trace == trace && c.Month == month && c.Variant == variant && c.Policy == policy {
			return c
		}
	}
	return nil
}

// devOf returns the dev of user u in a cell, from the users table, or NaN.
func (r *FairShareResult) devOf(c *FairShareCell, u int64) float64 {
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
func (r *FairShareResult) HasUsers() bool { return r.devs != nil }

// Dev returns the dev of user u in the successful cell of a trace month,
// variant and policy; NaN when there is no such cell or row.
func (r *FairShareResult) Dev(trace, month, variant, policy string, u int64) float64 {
	return r.devOf(r.cell(trace, month, variant, policy), u)
}

// TopUsers returns up to n users of a trace month by demand, largest
// first (the lower id on a tie), from the users table.
func (r *FairShareResult) TopUsers(trace, month string, n int) []int64 {
	c := r.anyCell(trace, month)
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

// Months returns a trace's months, ascending.
func (r *FairShareResult) Months(trace string) []string { return r.months(trace) }

// Traces returns the traces of the run, by name.
func (r *FairShareResult) Traces() []string {
	var out []string
	for _, c := range r.Cells {
		if !slices.Contains(out, c.Trace) {
			out = append(out, c.Trace)
		}
	}
	return out
}

// months returns a trace's months, ascending.
func (r *FairShareResult) months(trace string) []string {
	var out []string
	for _, c := range r.Cells {
		if c.Trace == trace && c.Month != "" && !slices.Contains(out, c.Month) {
			out = append(out, c.Month)
		}
	}
	slices.Sort(out)
	return out
}

// paperColumns are the policy x variant columns of seed 003's tables.
var paperColumns = [4]struct{ policy, variant string }{
	{fairRelShare, "T"}, {fairRelShare, "R"}, {fairTradeoff, "T"}, {fairTradeoff, "R"},
}

func paperFor(trace, month string) *paperMonth {
	for i, p := range paperMonths[trace] {
		if p.month == month {
			return &paperMonths[trace][i]
		}
	}
	return nil
}

// number prints a value rounded, or "-" for a missing one.
func number(v float64, decimals int) string {
	if math.IsNaN(v) {
		return "-"
	}
	return fmt.Sprintf("%.*f", decimals, v)
}

// PrintFairShare writes seed 003's tables with the paper's values beside
// ours, then checks the paper's qualitative claims.
func PrintFairShare(w io.Writer, r *FairShareResult) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	failed := 0
	for _, c := range r.Cells {
		if c.Failed {
			failed++
			fmt.Fprintf(w, "failed cell %s %s %s %s: %s\n", c.Trace, c.Month, c.Variant, c.Policy, c.Error)
		}
	}
	for _, p := range r.Problems {
		fmt.Fprintf(w, "unreadable part file left out: %v\n", p)
	}
	for _, trace := range r.Traces() {
		months := r.months(trace)
		fmt.Fprintf(w, "\n%s, Table I (the month's jobs; paper in brackets)\n", trace)
		fmt.Fprintln(tw, "month\tdemand %\tusers\tjobs\ttop user\t")
		for _, month := range months {
			c := r.anyCell(trace, month)
			if c == nil {
				continue
			}
			p := paperFor(trace, month)
			paper := func(v any) string {
				if p == nil {
					return ""
				}
				return fmt.Sprintf(" (%v)", v)
			}
			var pd, pu, pj, pt any
			if p != nil {
				pd, pu, pj, pt = p.demandPercent, p.users, p.jobs, p.topUser
			}
			fmt.Fprintf(tw, "%s\t%d%s\t%d%s\t%d%s\t%d%s\t\n", month, int(c.DemandPercent), paper(pd), c.Users, paper(pu), c.Jobs, paper(pj), c.TopUser, paper(pt))
		}
		tw.Flush()

		fmt.Fprintf(w, "\n%s, Tables III/IV: dev of the highest-demand user (processor-hours; ours / paper)\n", trace)
		fmt.Fprintln(tw, "month\tuser\tRelShare T\tRelShare R\tTradeoff-fs T\tTradeoff-fs R\t")
		for _, month := range months {
			p := paperFor(trace, month)
			user := int64(0)
			if c := r.anyCell(trace, month); c != nil {
				user = c.TopUser
			}
			if p != nil {
				user = p.topUser // the paper's user, looked up in the users table when it is not ours
			}
			fmt.Fprintf(tw, "%s\t%d\t", month, user)
			for k, col := range paperColumns {
				ours := number(r.devOf(r.cell(trace, month, col.variant, col.policy), user), 0)
				if p != nil {
					ours += " / " + number(p.topDev[k], 0)
				}
				fmt.Fprintf(tw, "%s\t", ours)
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()

		fmt.Fprintf(w, "\n%s, Tables VI/VII: total |dev| per month and running sum (ours / paper's running sum); fcfs-easy for reference\n", trace)
		fmt.Fprintln(tw, "month\tRelShare T\tRelShare R\tTradeoff-fs T\tTradeoff-fs R\tfcfs-easy T\tfcfs-easy R\t")
		var running [6]float64
		for _, month := range months {
			p := paperFor(trace, month)
			fmt.Fprintf(tw, "%s\t", month)
			cols := append(paperColumns[:], struct{ policy, variant string }{fairFCFSEasy, "T"}, struct{ policy, variant string }{fairFCFSEasy, "R"})
			for k, col := range cols {
				c := r.cell(trace, month, col.variant, col.policy)
				if c == nil {
					fmt.Fprint(tw, "-\t")
					continue
				}
				running[k] += c.TotalAbsDev
				text := fmt.Sprintf("%.0f, %.0f", c.TotalAbsDev, running[k])
				if p != nil && k < 4 {
					text += " / " + number(p.runningAbsDev[k], 0)
				}
				fmt.Fprintf(tw, "%s\t", text)
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()

		fmt.Fprintf(w, "\n%s: waits (hours) and mean bounded slowdown (tau 10 s) of the month's jobs\n", trace)
		fmt.Fprintln(tw, "month\tvariant\tpolicy\tmean wait\tmax wait\tp99 wait\tslowdown\t")
		for _, month := range months {
			for _, c := range r.Cells {
				if c.Trace != trace || c.Month != month || c.Failed {
					continue
				}
				text := []string{number(c.WaitMeanHours, 2), number(c.WaitMaxHours, 1), number(c.WaitP99Hours, 1), number(c.SlowdownTau10, 1)}
				if trace == paperTableIX.trace && month == paperTableIX.month {
					if k := slices.IndexFunc(paperColumns[:], func(pc struct{ policy, variant string }) bool {
						return pc.policy == c.Policy && pc.variant == c.Variant
					}); k >= 0 {
						text[0] += fmt.Sprintf(" (%.1f)", paperTableIX.meanWaitH[k])
						text[1] += fmt.Sprintf(" (%.1f)", paperTableIX.maxWaitH[k])
						text[3] += fmt.Sprintf(" (%.1f)", paperTableIX.meanSlowdown[k])
					}
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\n", month, c.Variant, c.Policy, strings.Join(text, "\t"))
			}
		}
		tw.Flush()
	}
	fmt.Fprintln(w, "\nThe paper's qualitative claims (design note fairshare.md, section 6):")
	for _, claim := range r.Claims() {
		mark := "holds"
		if !claim.Holds {
			mark = "DOES NOT HOLD"
		}
		fmt.Fprintf(w, "- %s: %s (%s)\n", claim.Text, mark, claim.Evidence)
	}
	if failed > 0 {
		fmt.Fprintf(w, "\n%d failed cells were left out\n", failed)
	}
	return nil
}

// anyCell returns some successful cell of a trace month (the workload
// columns are the same in all).
func (r *FairShareResult) anyCell(trace, month string) *FairShareCell {
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
func (r *FairShareResult) Claims() []Claim {
	var claims []Claim
	if months := r.months("kth"); len(months) > 0 {
		holds, complete := true, true
		var worst []string
		for _, v := range []string{"T", "R"} {
			var rel, trade float64
			for _, month := range months {
				a, b := r.cell("kth", month, v, fairRelShare), r.cell("kth", month, v, fairTradeoff)
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
			claims = append(claims, Claim{Workload: "kth", Text: "Tradeoff-fs lowers the running total |dev| in every KTH month", Holds: holds, Evidence: detail})
		}
	}
	if a, b := r.cell("kth", "1996-10", "T", fairRelShare), r.cell("kth", "1996-10", "T", fairTradeoff); a != nil && b != nil {
		da, db := r.devOf(a, 3), r.devOf(b, 3)
		claims = append(claims, Claim{Workload: "kth", Text: "KTH 10/96 user 3 is heavily under-share under RelShare, much less under Tradeoff-fs (T)",
			Holds: da < 0 && math.Abs(db) < math.Abs(da)/2, Evidence: fmt.Sprintf("dev %.0f vs %.0f", da, db)})
	}
	for _, v := range []string{"T", "R"} {
		if a, b := r.cell("kth", "1996-11", v, fairRelShare), r.cell("kth", "1996-11", v, fairTradeoff); a != nil && b != nil {
			da, db := r.devOf(a, 6), r.devOf(b, 6)
			claims = append(claims, Claim{Workload: "kth", Text: fmt.Sprintf("KTH 11/96 user 6 (mixed job sizes) does worse under Tradeoff-fs (%s)", v),
				Holds: db < da, Evidence: fmt.Sprintf("dev %.0f under RelShare, %.0f under Tradeoff-fs", da, db)})
		}
	}
	if a, b := r.cell("sdsc", "2000-06", "T", fairRelShare), r.cell("sdsc", "2000-06", "T", fairTradeoff); a != nil && b != nil {
		claims = append(claims, Claim{Workload: "sdsc", Text: "Tradeoff-fs cuts the maximum wait sharply on SDSC 06/00 (T; the paper: 94.2 h to 38.9 h)",
			Holds: b.WaitMaxHours < 0.75*a.WaitMaxHours, Evidence: fmt.Sprintf("%.1f h to %.1f h", a.WaitMaxHours, b.WaitMaxHours)})
	}
	return claims
}
