// Package lpbound computes the interval linear-programming lower bound on
// the weighted completion time sum w_i C_i of a moldable workload (seed
// 002, "safe" version of shared/design/moldable.md section 2).
//
// The time line is cut at boundaries beta_0 < ... < beta_L into bounded
// intervals [beta_l, beta_l+1] and the open interval [beta_L, inf).
// Variable x_il >= 0 says task i completes in interval l, at cost
// w_i beta_l; it exists for the open interval and wherever some
// allotment finishes by beta_l+1, with minimal area S_il. Each task
// completes once (sum_l x_il = 1), and the area of the tasks completed by
// beta_l+1 fits: sum_{l' <= l} sum_i S_il' x_il' <= m beta_l+1.
//
// The LP has n convexity rows but only L coupling rows, so Solve runs a
// generalized-upper-bound (GUB) primal simplex: every task keeps one
// "key" basic variable and the simplex works on an L x L basis, which
// makes an iteration O(n L + L^3) instead of O((n + L) * columns). Every
// solution is checked against a certificate (primal feasibility, dual
// feasibility and equal primal and dual values). SolveDense solves the
// same LP with gonum's dense simplex, as a cross-check.
package lpbound

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"

	"github.com/sweep-sched/sweep/engine/moldable"
	workload "github.com/sweep-sched/sweep/workload/moldable"
)

// A Problem is the interval LP of one workload.
type Problem struct {
	Processors int
	Boundaries []float64   // beta_0 < ... < beta_L, seconds
	Weights    []float64   // w_i
	Area       [][]float64 // Area[i][l] = S_il for bounded l; +Inf when no allotment ends by beta_l+1
}

// New builds the LP of the workload over the boundaries (increasing,
// positive; see moldable.LPBoundaries).
func New(w *workload.Workload, boundaries []float64) (*Problem, error) {
	if err := w.Validate(); err != nil {
		return nil, fmt.Errorf("interval LP: %w", err)
	}
	return build(w, boundaries)
}

// ForInstance builds the LP of the instance's workload, which
// moldable.NewInstance validated, over the boundaries of its lambda* and
// p_min for the anchor (moldable.LPBoundaries).
func ForInstance(in *moldable.Instance, anchor moldable.Anchor) (*Problem, error) {
	return build(in.Workload, moldable.LPBoundaries(in.LambdaStar, in.PMin, anchor))
}

// build builds the LP of a valid workload.
func build(w *workload.Workload, boundaries []float64) (*Problem, error) {
	if len(boundaries) == 0 {
		return nil, errors.New("interval LP: no boundaries")
	}
	for l, b := range boundaries {
		if !(b > 0) || math.IsInf(b, 0) || (l > 0 && b <= boundaries[l-1]) {
			return nil, fmt.Errorf("interval LP: boundary %d is %v, want finite, positive and increasing", l, b)
		}
	}
	L := len(boundaries) - 1
	p := &Problem{Processors: w.Processors, Boundaries: slices.Clone(boundaries)}
	p.Weights = make([]float64, len(w.Tasks))
	p.Area = make([][]float64, len(w.Tasks))
	areas := make([]float64, len(w.Tasks)*L)
	for i, t := range w.Tasks {
		p.Weights[i] = t.Weight
		// The allotments that end by beta_l+1 are those of gamma(beta_l+1)
		// processors or more, and the work is non-decreasing in the
		// processors (Validate), so the least area is gamma's.
		area := areas[i*L : (i+1)*L : (i+1)*L]
		for l := range area {
			area[l] = math.Inf(1)
			if k := moldable.Gamma(t, boundaries[l+1]); k > 0 {
				area[l] = t.Work(k)
			}
		}
		p.Area[i] = area
	}
	return p, nil
}

// intervals returns L, the number of bounded intervals.
func (p *Problem) intervals() int { return len(p.Boundaries) - 1 }

// cost returns c_il = w_i beta_l.
func (p *Problem) cost(i, l int) float64 { return p.Weights[i] * p.Boundaries[l] }

// area returns S_il, 0 for the open interval.
func (p *Problem) area(i, l int) float64 {
	if l == p.intervals() {
		return 0
	}
	return p.Area[i][l]
}

// exists reports whether variable x_il is in the LP.
func (p *Problem) exists(i, l int) bool { return l == p.intervals() || !math.IsInf(p.Area[i][l], 1) }

// capacity returns the right-hand side m beta_r+1 of coupling row r.
func (p *Problem) capacity(r int) float64 { return float64(p.Processors) * p.Boundaries[r+1] }

// A Solution is an optimal point of the LP with its dual.
type Solution struct {
	Value float64     // sum_i w_i sum_l beta_l x_il
	X     [][]float64 // X[i][l], l = 0..L (L: the open interval)
	// TaskDual[i] is u_i of task i's convexity row and RowDual[r] <= 0
	// the dual of coupling row r; nil from SolveDense.
	TaskDual, RowDual []float64
	Iterations        int
}

// DualValue returns sum_i u_i + sum_r m beta_r+1 RowDual[r].
func (p *Problem) DualValue(s Solution) float64 {
	v := 0.0
	for _, u := range s.TaskDual {
		v += u
	}
	for r, y := range s.RowDual {
		v += y * p.capacity(r)
	}
	return v
}

// Check verifies the certificate of s to relative tolerance tol: x is
// primal feasible and has value s.Value; when s carries a dual, the dual
// is feasible (every reduced cost >= 0, row duals <= 0) and its value
// equals s.Value, which proves optimality.
func (p *Problem) Check(s Solution, tol float64) error {
	L := p.intervals()
	scale := 1.0
	value := 0.0
	for i := range p.Weights {
		sum := 0.0
		for l := 0; l <= L; l++ {
			x := s.X[i][l]
			if x < -tol || (x != 0 && !p.exists(i, l)) {
				return fmt.Errorf("interval LP certificate: x[%d][%d] = %v is not allowed", i, l, x)
			}
			sum += x
			value += p.cost(i, l) * x
			scale = max(scale, math.Abs(p.cost(i, l)))
		}
		if math.Abs(sum-1) > tol {
			return fmt.Errorf("interval LP certificate: task %d completes %v times, want 1", i, sum)
		}
	}
	used := 0.0
	for r := 0; r < L; r++ {
		for i := range p.Weights {
			if x := s.X[i][r]; x != 0 {
				used += p.Area[i][r] * x
			}
		}
		if c := p.capacity(r); used > c+tol*c {
			return fmt.Errorf("interval LP certificate: area %v completed by %v exceeds capacity %v", used, p.Boundaries[r+1], c)
		}
	}
	if math.Abs(value-s.Value) > tol*max(1, math.Abs(value)) {
		return fmt.Errorf("interval LP certificate: primal value %v, solution says %v", value, s.Value)
	}
	if s.TaskDual == nil {
		return nil
	}
	prices := p.prices(s.RowDual)
	for r, y := range s.RowDual {
		if y > tol {
			return fmt.Errorf("interval LP certificate: dual of area row %d is %v > 0", r, y)
		}
	}
	for i, u := range s.TaskDual {
		for l := 0; l <= L; l++ {
			if !p.exists(i, l) {
				continue
			}
			if rc := p.cost(i, l) - u - p.area(i, l)*prices[l]; rc < -tol*scale {
				return fmt.Errorf("interval LP certificate: x[%d][%d] has reduced cost %v < 0", i, l, rc)
			}
		}
	}
	if d := p.DualValue(s); math.Abs(d-value) > tol*max(1, math.Abs(value)) {
		return fmt.Errorf("interval LP certificate: dual value %v differs from primal value %v", d, value)
	}
	return nil
}

// prices returns Pi_l = sum_{r >= l} y_r for l = 0..L (Pi_L = 0): the
// coupling column of x_il is S_il on rows l..L-1, so its dual price is
// S_il Pi_l.
func (p *Problem) prices(rowDual []float64) []float64 {
	L := p.intervals()
	pi := make([]float64, L+1)
	for l := L - 1; l >= 0; l-- {
		pi[l] = pi[l+1] + rowDual[l]
	}
	return pi
}

// SolveDense solves the LP with gonum's dense simplex on the standard
// form built directly: the x_il, then one slack per coupling row; the
// open-interval variables and the slacks are the initial basis. It is
// slow (minutes at n = 400) and kept as the tests' cross-check.
func (p *Problem) SolveDense() (Solution, error) {
	n, L := len(p.Weights), p.intervals()
	type column struct{ task, l int }
	var cols []column
	for i := range n {
		for l := 0; l <= L; l++ {
			if p.exists(i, l) {
				cols = append(cols, column{i, l})
			}
		}
	}
	rows, width := n+L, len(cols)+L
	A := mat.NewDense(rows, width, nil)
	c := make([]float64, width)
	b := make([]float64, rows)
	var basis []int
	for j, col := range cols {
		c[j] = p.cost(col.task, col.l)
		A.Set(col.task, j, 1)
		for r := col.l; r < L; r++ {
			A.Set(n+r, j, p.Area[col.task][col.l])
		}
		if col.l == L {
			basis = append(basis, j)
		}
	}
	for i := range n {
		b[i] = 1
	}
	for r := range L {
		A.Set(n+r, len(cols)+r, 1)
		b[n+r] = p.capacity(r)
		basis = append(basis, len(cols)+r)
	}
	value, x, err := lp.Simplex(c, A, b, 1e-10, basis)
	if err != nil {
		return Solution{}, fmt.Errorf("interval LP (dense simplex): %w", err)
	}
	s := Solution{Value: value, X: make([][]float64, n)}
	for i := range s.X {
		s.X[i] = make([]float64, L+1)
	}
	for j, col := range cols {
		s.X[col.task][col.l] = x[j]
	}
	return s, nil
}
