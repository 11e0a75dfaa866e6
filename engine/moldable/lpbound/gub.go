package lpbound

import (
	"fmt"
	"math"
	"slices"
)

// A variable of the standard form: x_il (task >= 0) or the slack of
// coupling row l (task < 0).
type variable struct{ task, l int }

// index orders variables for Bland's rule: slacks first, then x by task
// and interval. Pricing scans the variables in this order.
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

	// cost and area hold c_il and S_il in one row of L+1 per task, the
	// open interval last (area 0); task i has an x_il for every l from
	// first[i] on.
	cost, area []float64
	first      []int
	// Dantzig's rule prices by intervals: byFirst lists the tasks by
	// their first interval, so the tasks with an x_il are
	// byFirst[:have[l]], and column l of colCost and colArea holds their
	// c_il and S_il in that order from colAt[l]. A key's area there is
	// NaN, which makes its reduced cost NaN, never below the best. duals
	// holds the u_i in byFirst order; place[i] is task i's position.
	byFirst, place, have, colAt []int
	colCost, colArea, duals     []float64

	xWork, xKey, pi, prices, alpha []float64
	// lu holds the LU factors of the working basis, row-major, and
	// pivots its row interchanges, as LAPACK's dgetrf leaves them;
	// singular is set when the factorization met a zero pivot.
	lu       []float64
	pivots   []int
	singular bool
	// solution is the last solution solve computed.
	solution []float64
	// The right-hand side of the working basis: the capacities minus the
	// areas of the keys, keyArea[l] the sum over the tasks keyed in l,
	// in task order. keyed[l] lists those tasks (l < L; the open
	// interval's areas are 0), moved[l] says it changed since keyArea[l]
	// was summed, keysMoved that some did.
	rhs       []float64
	keyed     [][]int
	moved     []bool
	keysMoved bool
	// xKeySet lists the tasks whose xKey may differ from 1: those with
	// working variables at the last refresh.
	xKeySet []int
	// Scratch of refresh.
	col, keyArea, costs []float64
}

// newGUB returns the simplex state at the starting basis: every key in
// the open interval, the slacks working. It fails when a task has an
// x_il but not x_i,l+1, which no workload gives (an allotment that ends
// by beta_l+1 ends by every later boundary) and pricing relies on.
func newGUB(p *Problem) (*gub, error) {
	n, L := len(p.Weights), p.intervals()
	g := &gub{p: p, n: n, L: L, key: make([]int, n), xKey: make([]float64, n), first: make([]int, n), keysMoved: true}
	g.cost, g.area = make([]float64, n*(L+1)), make([]float64, n*(L+1))
	for i := range n {
		g.key[i], g.xKey[i] = L, 1
		row := i * (L + 1)
		for l := range L + 1 {
			g.cost[row+l] = p.cost(i, l)
			g.area[row+l] = p.area(i, l)
		}
		g.first[i] = L
		for g.first[i] > 0 && p.exists(i, g.first[i]-1) {
			g.first[i]--
		}
		for l := range g.first[i] {
			if p.exists(i, l) {
				return nil, fmt.Errorf("interval LP: task %d has an area in interval %d but none in a later one", i, l)
			}
		}
	}
	g.byFirst = make([]int, n)
	for i := range g.byFirst {
		g.byFirst[i] = i
	}
	slices.SortStableFunc(g.byFirst, func(a, b int) int { return g.first[a] - g.first[b] })
	g.place, g.have, g.colAt = make([]int, n), make([]int, L+1), make([]int, L+2)
	for t, i := range g.byFirst {
		g.place[i] = t
		for l := g.first[i]; l <= L; l++ {
			g.have[l]++
		}
	}
	for l := range L + 1 {
		g.colAt[l+1] = g.colAt[l] + g.have[l]
	}
	g.colCost, g.colArea = make([]float64, g.colAt[L+1]), make([]float64, g.colAt[L+1])
	for l := range L + 1 {
		for t, i := range g.byFirst[:g.have[l]] {
			g.colCost[g.colAt[l]+t] = g.cost[i*(L+1)+l]
			g.colArea[g.colAt[l]+t] = g.area[i*(L+1)+l]
			if l == L {
				g.colArea[g.colAt[l]+t] = math.NaN() // the key
			}
		}
	}
	g.duals = make([]float64, n)
	g.prices = make([]float64, L+1)
	if L == 0 {
		return g, nil
	}
	for r := range L {
		g.working = append(g.working, variable{-1, r})
	}
	g.xWork, g.pi, g.alpha = make([]float64, L), make([]float64, L), make([]float64, L)
	g.lu, g.pivots, g.solution = make([]float64, L*L), make([]int, L), make([]float64, L)
	g.col, g.keyArea, g.rhs, g.costs = make([]float64, L), make([]float64, L), make([]float64, L), make([]float64, L)
	g.keyed, g.moved = make([][]int, L), make([]bool, L)
	return g, nil
}

// column writes into dst the coupling column of v reduced by its task's
// key column: the working-basis column of v.
func (g *gub) column(dst []float64, v variable) {
	clear(dst)
	if v.task < 0 {
		dst[v.l] = 1
		return
	}
	row := v.task * (g.L + 1)
	key := g.key[v.task]
	for r := v.l; r < g.L; r++ {
		dst[r] += g.area[row+v.l]
	}
	for r := key; r < g.L; r++ {
		dst[r] -= g.area[row+key]
	}
}

// solve solves basis x = b (or its transpose) into dst with the factors
// of refresh: LAPACK's dgetrs (solveLU), as gonum's mat.LU.SolveVecTo
// calls it.
// A singular basis is not solved: dst gets the previous solution, which
// is what the simplex used when it went through mat.LU (its error was
// ignored, the certificate judging the end result), so that the
// arithmetic stays that of mat.LU in every case.
func (g *gub) solve(dst, b []float64, trans bool) {
	if !g.singular {
		copy(g.solution, b)
		solveLU(g.L, g.lu, g.pivots, g.solution, trans)
	}
	copy(dst, g.solution)
}

// refresh factorizes the working basis and recomputes the basic values
// and the duals from scratch, so errors never accumulate. The
// factorization is LAPACK's dgetrf (factorLU), which gonum's
// mat.LU.Factorize calls (without its condition estimate, which nothing
// reads).
func (g *gub) refresh() {
	L := g.L
	for j, v := range g.working {
		g.column(g.col, v)
		for r, a := range g.col {
			g.lu[r*L+j] = a
		}
	}
	g.singular = !factorLU(L, g.lu, g.pivots)
	if g.keysMoved {
		for l, tasks := range g.keyed {
			if !g.moved[l] {
				continue
			}
			sum := 0.0
			for _, i := range tasks {
				sum += g.area[i*(L+1)+l]
			}
			g.keyArea[l], g.moved[l] = sum, false
		}
		used := 0.0
		for r := range L {
			used += g.keyArea[r]
			g.rhs[r] = g.p.capacity(r) - used
		}
		g.keysMoved = false
	}
	g.solve(g.xWork, g.rhs, false)
	for _, i := range g.xKeySet {
		g.xKey[i] = 1
	}
	g.xKeySet = g.xKeySet[:0]
	for j, v := range g.working {
		g.costs[j] = 0
		if v.task >= 0 {
			g.xKeySet = append(g.xKeySet, v.task)
			g.xKey[v.task] -= g.xWork[j]
			row := v.task * (L + 1)
			g.costs[j] = g.cost[row+v.l] - g.cost[row+g.key[v.task]]
		}
	}
	g.solve(g.pi, g.costs, true)
	// The prices Pi_l of Problem.prices.
	g.prices[L] = 0
	for l := L - 1; l >= 0; l-- {
		g.prices[l] = g.prices[l+1] + g.pi[l]
	}
}

// setKey makes x_il task i's key.
func (g *gub) setKey(i, l int) {
	k, L := g.key[i], g.L
	g.colArea[g.colAt[k]+g.place[i]] = g.area[i*(L+1)+k]
	g.colArea[g.colAt[l]+g.place[i]] = math.NaN()
	g.key[i] = l
	if k < L {
		at, _ := slices.BinarySearch(g.keyed[k], i)
		g.keyed[k] = slices.Delete(g.keyed[k], at, at+1)
		g.moved[k] = true
	}
	if l < L {
		at, _ := slices.BinarySearch(g.keyed[l], i)
		g.keyed[l] = slices.Insert(g.keyed[l], at, i)
		g.moved[l] = true
	}
	g.keysMoved = true
}

// taskDual returns u_i, which makes the key's reduced cost zero.
func (g *gub) taskDual(i int) float64 {
	k := g.key[i]
	row := i * (g.L + 1)
	return g.cost[row+k] - g.area[row+k]*g.prices[k]
}

// price returns the entering variable: the one of most negative reduced
// cost below -reducedTol costScale (the first in index order on ties),
// or with bland the first such variable in index order; found is false
// at an optimum. The reduced cost of x_il is c_il - u_i - S_il Pi_l, of
// the slack of row r -pi_r.
func (g *gub) price(costScale float64, bland bool) (enter variable, found bool) {
	best := -reducedTol * costScale
	if bland {
		return g.firstEligible(best)
	}
	L := g.L
	bestIndex := -1
	for r := range L {
		if rc := -g.pi[r]; rc < best {
			enter, best, found, bestIndex = variable{-1, r}, rc, true, r
		}
	}
	for t, i := range g.byFirst {
		g.duals[t] = g.taskDual(i)
	}
	// By intervals, so the first of equal reduced costs in index order
	// is chosen explicitly. The open interval's x_iL has area 0 and
	// Pi_L = 0, which subtracts 0.
	for l := range L + 1 {
		cost := g.colCost[g.colAt[l]:g.colAt[l+1]]
		area := g.colArea[g.colAt[l]:g.colAt[l+1]][:len(cost)]
		duals := g.duals[:len(cost)]
		price := g.prices[l]
		for t := 0; ; t++ {
			if t += firstAtMost(cost[t:], duals[t:], area[t:], price, best); t == len(cost) {
				break
			}
			rc := cost[t] - duals[t] - area[t]*price
			v := variable{g.byFirst[t], l}
			if index := v.index(L); rc < best || index < bestIndex {
				enter, best, found, bestIndex = v, rc, true, index
			}
		}
	}
	return enter, found
}

// firstEligible returns the first variable in index order whose reduced
// cost is below threshold (Bland's rule): it scans in that order.
func (g *gub) firstEligible(threshold float64) (enter variable, found bool) {
	L := g.L
	for r := range L {
		if -g.pi[r] < threshold {
			return variable{-1, r}, true
		}
	}
	for i, key := range g.key {
		row := i * (L + 1)
		u := g.taskDual(i)
		for l := g.first[i]; l < L; l++ {
			if l != key && g.cost[row+l]-u-g.area[row+l]*g.prices[l] < threshold {
				return variable{i, l}, true
			}
		}
		// The open interval's x_iL has area 0 (and Pi_L = 0).
		if key != L && g.cost[row+L]-u < threshold {
			return variable{i, L}, true
		}
	}
	return variable{}, false
}

// Solve returns an optimal solution of the LP with the GUB primal simplex,
// starting from the feasible basis of the open-interval variables (keys)
// and the slacks, and checks its certificate. Iterations are counted and
// capped at 100 (n + L) + 1000.
func (p *Problem) Solve() (Solution, error) {
	g, err := newGUB(p)
	if err != nil {
		return Solution{}, err
	}
	n, L := g.n, g.L
	if L == 0 {
		return p.finish(g, 0)
	}
	costScale := 1.0
	for i := range n {
		costScale = max(costScale, p.cost(i, L))
	}
	limit := 100*(n+L) + 1000
	degenerate := 0
	col := make([]float64, L)
	// rho[i] is the fall of task i's key per unit of the entering
	// variable, for the tasks in rhoTasks (a dense map: it is filled and
	// read every iteration).
	rho, hasRho := make([]float64, n), make([]bool, n)
	var rhoTasks []int
	for iter := 0; iter < limit; iter++ {
		g.refresh()
		bland := degenerate >= blandAfter
		enter, found := g.price(costScale, bland)
		if !found {
			return p.finish(g, iter)
		}
		// Direction: the working variables fall by alpha per unit of the
		// entering one, the key of task i by rho_i.
		g.column(col, enter)
		g.solve(g.alpha, col, false)
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
		slices.Sort(rhoTasks)
		for _, i := range rhoTasks {
			r := rho[i]
			if r <= pivotTol {
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
		if leaveWork >= 0 {
			g.working[leaveWork] = enter
			continue
		}
		// Another basic variable of the task becomes its key and the
		// entering variable takes its working slot; only the entering
		// variable can replace a lone key.
		j := slices.IndexFunc(g.working, func(v variable) bool { return v.task == leaveKey })
		if j >= 0 {
			g.setKey(leaveKey, g.working[j].l)
			g.working[j] = enter
		} else {
			g.setKey(leaveKey, enter.l)
		}
	}
	return Solution{}, fmt.Errorf("interval LP: no optimum after %d simplex iterations", limit)
}

// finish reads the solution off the final basis and checks its
// certificate.
func (p *Problem) finish(g *gub, iterations int) (Solution, error) {
	n, L := g.n, g.L
	s := Solution{X: make([][]float64, n), TaskDual: make([]float64, n), RowDual: make([]float64, L), Iterations: iterations}
	copy(s.RowDual, g.pi)
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
