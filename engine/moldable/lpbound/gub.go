package lpbound

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// A variable of the standard form: x_il (task >= 0) or the slack of
// coupling row l (task < 0).
type variable struct{ task, l int }

// index orders variables for Bland's rule: slacks first, then x by task
// and interval.
func (v variable) index(L int) int {
	if v.task < 0 {
		return v.l
	}
	return L + v.task*(L+1) + v.l
}

// Tolerances of the GUB simplex. pivotTol is the smallest pivot element
// it divides by; reducedTol, relative to the largest cost, is how
// negative a reduced cost must be to enter; blandAfter degenerate pivots
// in a row switch pricing from Dantzig's rule to Bland's, which cannot
// cycle, until the objective moves again.
const (
	pivotTol   = 1e-9
	reducedTol = 1e-11
	blandAfter = 50
)

// gub is the state of the GUB simplex: every task's key variable (the
// interval index of one of its basic x) and the L working basic
// variables, which with the keys form a basis of the full LP.
type gub struct {
	p       *Problem
	n, L    int
	key     []int
	working []variable

	xWork, xKey, pi, prices, alpha []float64
	basis                          *mat.Dense
	lu                             mat.LU
	vec, rhs                       *mat.VecDense
}

// column writes into dst the coupling column of v reduced by its task's
// key column: the working-basis column of v.
func (g *gub) column(dst []float64, v variable) {
	clear(dst)
	if v.task < 0 {
		dst[v.l] = 1
		return
	}
	key := g.key[v.task]
	for r := v.l; r < g.L; r++ {
		dst[r] += g.p.area(v.task, v.l)
	}
	for r := key; r < g.L; r++ {
		dst[r] -= g.p.area(v.task, key)
	}
}

// solve solves basis x = b (or its transpose) into dst.
func (g *gub) solve(dst, b []float64, trans bool) error {
	copy(g.rhs.RawVector().Data, b)
	if err := g.lu.SolveVecTo(g.vec, trans, g.rhs); err != nil {
		var cond mat.Condition
		if !errors.As(err, &cond) {
			return err
		}
		// An ill-conditioned basis still yields a solution; the
		// certificate check rejects it if it is wrong.
	}
	copy(dst, g.vec.RawVector().Data)
	return nil
}

// refresh factorizes the working basis and recomputes the basic values
// and the duals from scratch, so errors never accumulate.
func (g *gub) refresh() error {
	col := make([]float64, g.L)
	for j, v := range g.working {
		g.column(col, v)
		for r, a := range col {
			g.basis.Set(r, j, a)
		}
	}
	g.lu.Factorize(g.basis)
	// Right-hand side: capacities minus the areas of the keys.
	keyArea := make([]float64, g.L+1)
	for i, l := range g.key {
		keyArea[l] += g.p.area(i, l)
	}
	rhs := make([]float64, g.L)
	used := 0.0
	for r := range g.L {
		used += keyArea[r]
		rhs[r] = g.p.capacity(r) - used
	}
	if err := g.solve(g.xWork, rhs, false); err != nil {
		return err
	}
	for i := range g.xKey {
		g.xKey[i] = 1
	}
	costs := make([]float64, g.L)
	for j, v := range g.working {
		if v.task >= 0 {
			g.xKey[v.task] -= g.xWork[j]
			costs[j] = g.p.cost(v.task, v.l) - g.p.cost(v.task, g.key[v.task])
		}
	}
	if err := g.solve(g.pi, costs, true); err != nil {
		return err
	}
	copy(g.prices, g.p.prices(g.pi))
	return nil
}

// taskDual returns u_i, which makes the key's reduced cost zero.
func (g *gub) taskDual(i int) float64 {
	k := g.key[i]
	return g.p.cost(i, k) - g.p.area(i, k)*g.prices[k]
}

// Solve returns an optimal solution of the LP with the GUB primal simplex,
// starting from the feasible basis of the open-interval variables (keys)
// and the slacks, and checks its certificate. Iterations are counted and
// capped at 100 (n + L) + 1000.
func (p *Problem) Solve() (Solution, error) {
	n, L := len(p.Weights), p.intervals()
	g := &gub{p: p, n: n, L: L, key: make([]int, n), xKey: make([]float64, n)}
	for i := range g.key {
		g.key[i] = L
	}
	if L == 0 {
		return p.finish(g, 0)
	}
	for r := range L {
		g.working = append(g.working, variable{-1, r})
	}
	g.xWork, g.pi, g.alpha = make([]float64, L), make([]float64, L), make([]float64, L)
	g.prices = make([]float64, L+1)
	g.basis = mat.NewDense(L, L, nil)
	g.vec, g.rhs = mat.NewVecDense(L, nil), mat.NewVecDense(L, nil)
	costScale := 1.0
	for i := range n {
		costScale = max(costScale, p.cost(i, L))
	}
	limit := 100*(n+L) + 1000
	degenerate := 0
	col := make([]float64, L)
	inWorking := make([]int, n) // working variables per task
	// rho[i] is the fall of task i's key per unit of the entering
	// variable, for the tasks in hasRho (a dense map: it is filled and
	// read every iteration).
	rho, hasRho := make([]float64, n), make([]bool, n)
	var rhoTasks []int
	for iter := 0; iter < limit; iter++ {
		if err := g.refresh(); err != nil {
			return Solution{}, fmt.Errorf("interval LP: iteration %d: %w", iter, err)
		}
		bland := degenerate >= blandAfter
		enter, best := variable{}, -reducedTol*costScale
		found := false
		consider := func(v variable, rc float64) {
			if rc >= -reducedTol*costScale {
				return
			}
			if bland {
				if !found || v.index(L) < enter.index(L) {
					enter, found = v, true
				}
				return
			}
			if rc < best {
				enter, best, found = v, rc, true
			}
		}
		for r := range L {
			consider(variable{-1, r}, -g.pi[r])
		}
		for i := range n {
			// The task's areas in one row (+Inf: no such x_il), then the
			// open interval's x_iL, of area 0: the same reduced costs as
			// cost - u - area x price through p's accessors, read once.
			u, key, weight := g.taskDual(i), g.key[i], p.Weights[i]
			for l, area := range p.Area[i] {
				if l == key || math.IsInf(area, 1) {
					continue
				}
				consider(variable{i, l}, weight*p.Boundaries[l]-u-area*g.prices[l])
			}
			if key != L {
				area := 0.0
				consider(variable{i, L}, weight*p.Boundaries[L]-u-area*g.prices[L])
			}
		}
		if !found {
			return p.finish(g, iter)
		}
		// Direction: the working variables fall by alpha per unit of the
		// entering one, the key of task i by rho_i.
		g.column(col, enter)
		if err := g.solve(g.alpha, col, false); err != nil {
			return Solution{}, fmt.Errorf("interval LP: iteration %d: %w", iter, err)
		}
		clear(inWorking)
		for _, i := range rhoTasks {
			rho[i], hasRho[i] = 0, false
		}
		rhoTasks = rhoTasks[:0]
		if enter.task >= 0 {
			rho[enter.task], hasRho[enter.task] = 1, true
			rhoTasks = append(rhoTasks, enter.task)
		}
		for j, v := range g.working {
			if v.task >= 0 {
				if !hasRho[v.task] {
					hasRho[v.task] = true
					rhoTasks = append(rhoTasks, v.task)
				}
				rho[v.task] -= g.alpha[j]
				inWorking[v.task]++
			}
		}
		leaveWork, leaveKey := -1, -1
		theta := math.Inf(1)
		var leaveIndex int
		pivot := 0.0
		better := func(ratio, piv float64, index int) bool {
			if ratio < theta-1e-12*max(1, theta) {
				return true
			}
			if ratio > theta+1e-12*max(1, theta) {
				return false
			}
			if bland {
				return index < leaveIndex
			}
			return piv > pivot
		}
		for j, v := range g.working {
			if a := g.alpha[j]; a > pivotTol {
				ratio := max(g.xWork[j], 0) / a
				if better(ratio, a, v.index(L)) {
					theta, leaveWork, leaveKey, leaveIndex, pivot = ratio, j, -1, v.index(L), a
				}
			}
		}
		// Tasks in increasing order keep the choice deterministic.
		for i := range n {
			r := rho[i]
			if !hasRho[i] || r <= pivotTol {
				continue
			}
			ratio := max(g.xKey[i], 0) / r
			idx := variable{i, g.key[i]}.index(L)
			if better(ratio, r, idx) {
				theta, leaveWork, leaveKey, leaveIndex, pivot = ratio, -1, i, idx, r
			}
		}
		if math.IsInf(theta, 1) {
			return Solution{}, fmt.Errorf("interval LP: iteration %d: unbounded direction (a bug: the LP is bounded)", iter)
		}
		if theta <= 1e-12 {
			degenerate++
		} else {
			degenerate = 0
		}
		switch {
		case leaveWork >= 0:
			g.working[leaveWork] = enter
		case inWorking[leaveKey] > 0:
			// Another basic variable of the task becomes its key and the
			// entering variable takes its working slot.
			for j, v := range g.working {
				if v.task == leaveKey {
					g.key[leaveKey] = v.l
					g.working[j] = enter
					break
				}
			}
		default:
			// Only the entering variable can replace a lone key.
			g.key[leaveKey] = enter.l
		}
	}
	return Solution{}, fmt.Errorf("interval LP: no optimum after %d simplex iterations", limit)
}

// finish reads the solution off the final basis and checks its
// certificate.
func (p *Problem) finish(g *gub, iterations int) (Solution, error) {
	n, L := g.n, g.L
	s := Solution{X: make([][]float64, n), TaskDual: make([]float64, n), RowDual: make([]float64, L), Iterations: iterations}
	if L == 0 {
		g.prices = []float64{0}
	} else {
		copy(s.RowDual, g.pi)
	}
	for i := range n {
		s.X[i] = make([]float64, L+1)
		s.X[i][g.key[i]] = g.xKey[i]
		if L == 0 {
			s.X[i][0] = 1
		}
		s.TaskDual[i] = g.taskDual(i)
	}
	for j, v := range g.working {
		if v.task >= 0 {
			s.X[v.task][v.l] = g.xWork[j]
		}
	}
	for i := range n {
		for l := 0; l <= L; l++ {
			s.Value += p.cost(i, l) * s.X[i][l]
		}
	}
	if err := p.Check(s, 1e-9); err != nil {
		return Solution{}, err
	}
	return s, nil
}
