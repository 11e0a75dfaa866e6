package campaign

import (
	"fmt"
	"math/big"
)

// A VirtualSchedule is OStrich's fair-share schedule (seed 000 Sec. IV-A,
// DESIGN.md section 4): the m processors are divided equally among the
// users that have a virtually unfinished campaign, k(t) of them; each
// user's campaigns run one after another, campaign i starting virtually at
// max(its submission, virtual completion of campaign i-1). Times and
// remaining work are exact rationals, so virtual completions that tie
// really tie.
//
// Time only moves forward: Submit and AdvanceTo take ticks that never
// decrease. Completion reports the schedule as of the last tick, assuming
// k stays as it is (the paper's C̃ = t + k W̃ / m, OStrich's priority); it
// changes whenever k does. Start projects the virtual start exactly, up to
// the next submission.
type VirtualSchedule struct {
	machines *big.Rat
	now      *big.Rat
	nowTick  int64
	active   int64 // k: users with a virtually unfinished campaign

	queue     [][]int    // per user: virtually unfinished campaigns, in order
	remaining []*big.Rat // per campaign: virtual work left
	userOf    []int      // per campaign; -1 until submitted
	start     []*big.Rat // per campaign: virtual start, nil while queued
	finish    []*big.Rat // per campaign: virtual completion, nil until then

	// changes counts submissions and virtual completions: while it stays
	// the same, so does every projected Start.
	changes uint64
}

// NewVirtualSchedule returns an empty virtual schedule of machines
// processors for users users and campaigns campaigns (identified by
// index).
func NewVirtualSchedule(machines, users, campaigns int) *VirtualSchedule {
	v := &VirtualSchedule{
		machines:  new(big.Rat).SetInt64(int64(machines)),
		now:       new(big.Rat),
		queue:     make([][]int, users),
		remaining: make([]*big.Rat, campaigns),
		userOf:    make([]int, campaigns),
		start:     make([]*big.Rat, campaigns),
		finish:    make([]*big.Rat, campaigns),
	}
	for c := range v.userOf {
		v.userOf[c] = -1
	}
	return v
}

// ActiveUsers returns k at the current time.
func (v *VirtualSchedule) ActiveUsers() int { return int(v.active) }

// AdvanceTo runs the virtual schedule up to tick, completing every
// campaign whose virtual completion is at or before it.
func (v *VirtualSchedule) AdvanceTo(tick int64) {
	if tick < v.nowTick {
		panic(fmt.Sprintf("campaign: virtual schedule moved back from %d to %d", v.nowTick, tick))
	}
	v.nowTick = tick
	target := new(big.Rat).SetInt64(tick)
	for v.active > 0 {
		// The head campaign with the least remaining work completes
		// first, after k x remaining / m.
		var least *big.Rat
		for _, q := range v.queue {
			if len(q) > 0 && (least == nil || v.remaining[q[0]].Cmp(least) < 0) {
				least = v.remaining[q[0]]
			}
		}
		least = new(big.Rat).Set(least)
		done := new(big.Rat).Mul(least, big.NewRat(v.active, 1))
		done.Quo(done, v.machines)
		done.Add(done, v.now)
		if done.Cmp(target) > 0 {
			served := new(big.Rat).Sub(target, v.now)
			served.Mul(served, v.machines)
			served.Quo(served, big.NewRat(v.active, 1))
			for _, q := range v.queue {
				if len(q) > 0 {
					v.remaining[q[0]].Sub(v.remaining[q[0]], served)
				}
			}
			break
		}
		v.now = done
		for u, q := range v.queue {
			if len(q) == 0 {
				continue
			}
			head := q[0]
			v.remaining[head].Sub(v.remaining[head], least)
			if v.remaining[head].Sign() != 0 {
				continue
			}
			v.finish[head] = done
			v.changes++
			v.queue[u] = q[1:]
			if len(v.queue[u]) == 0 {
				v.active--
			} else {
				v.start[v.queue[u][0]] = done
			}
		}
	}
	v.now = target
}

// Submit advances to tick and adds campaign c of user u with workTicks of
// work (processor-ticks). It starts virtually now if the user has no
// virtually unfinished campaign, else after the last of them.
func (v *VirtualSchedule) Submit(c, u int, tick, workTicks int64) {
	if v.userOf[c] >= 0 {
		panic(fmt.Sprintf("campaign: campaign %d submitted twice to the virtual schedule", c))
	}
	v.AdvanceTo(tick)
	v.changes++
	v.userOf[c] = u
	v.remaining[c] = new(big.Rat).SetInt64(workTicks)
	if len(v.queue[u]) == 0 {
		v.active++
		v.start[c] = new(big.Rat).Set(v.now)
	}
	v.queue[u] = append(v.queue[u], c)
}

// Completion returns campaign c's virtual completion: final once reached,
// otherwise now + k x (work left of c and of the user's campaigns before
// it) / m.
func (v *VirtualSchedule) Completion(c int) *big.Rat {
	if v.finish[c] != nil {
		return v.finish[c]
	}
	u := v.userOf[c]
	if u < 0 {
		panic(fmt.Sprintf("campaign: campaign %d is not in the virtual schedule", c))
	}
	left := new(big.Rat)
	for _, d := range v.queue[u] {
		left.Add(left, v.remaining[d])
		if d == c {
			break
		}
	}
	left.Mul(left, big.NewRat(v.active, 1))
	left.Quo(left, v.machines)
	return left.Add(left, v.now)
}

// Start returns campaign c's virtual start: final once started, otherwise
// the time at which the user's earlier campaigns complete virtually if no
// campaign is submitted meanwhile. Every active user is served at the same
// rate until its queue empties (processor sharing among users), so when
// user u has been served x more, every other user v has been served
// min(R_v, x), R_v its work left, and the start is now + sum_v min(R_v, x)
// / m with x the work left before c. Unlike Completion it follows the
// virtual completions that lower k before the start; only a submission
// can move it, and only later.
func (v *VirtualSchedule) Start(c int) *big.Rat {
	if v.start[c] != nil {
		return v.start[c]
	}
	u := v.userOf[c]
	if u < 0 {
		panic(fmt.Sprintf("campaign: campaign %d is not in the virtual schedule", c))
	}
	before := new(big.Rat)
	for _, d := range v.queue[u] {
		if d == c {
			break
		}
		before.Add(before, v.remaining[d])
	}
	served := new(big.Rat)
	left := new(big.Rat)
	for _, q := range v.queue {
		left.SetInt64(0)
		for _, d := range q {
			left.Add(left, v.remaining[d])
		}
		if left.Cmp(before) < 0 {
			served.Add(served, left)
		} else {
			served.Add(served, before)
		}
	}
	served.Quo(served, v.machines)
	return served.Add(served, v.now)
}

// started reports whether campaign c has started in the virtual schedule
// by the last tick it was advanced to.
func (v *VirtualSchedule) started(c int) bool { return v.start[c] != nil }
