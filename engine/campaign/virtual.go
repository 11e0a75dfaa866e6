package campaign

import (
	"cmp"
	"fmt"
	"math"
	"math/big"
)

// A VirtualSchedule is OStrich's fair-share schedule (seed 000 Sec. IV-A,
// DESIGN.md section 4): the m processors are divided equally among the
// users that have a virtually unfinished campaign, k(t) of them; each
// user's campaigns run one after another, campaign i starting virtually at
// max(its submission, virtual completion of campaign i-1). Times and
// amounts of work are exact rationals, so virtual completions that tie
// really tie.
//
// Every active user is served at the same rate m / k, so the schedule
// keeps one service level V: the work each user has been served while
// active, which grows at m / k per tick (and stays put while k = 0). A
// campaign completes when V reaches its finish level, fixed at its
// submission: V then + its work if its user had nothing unfinished, else
// its user's previous finish level + its work. V needs recomputing only
// when k changes (a submission or a virtual completion), and the next
// virtual completion is known in between, so advancing the schedule to a
// tick before it costs nothing; the rational arithmetic, whose
// denominators grow with the products of the k's, runs a few times per
// campaign instead of once per user at every tick.
//
// Time only moves forward: Submit and AdvanceTo take ticks that never
// decrease. Completion reports the schedule as of the last tick, assuming
// k stays as it is (the paper's C̃ = t + k W̃ / m, OStrich's priority); it
// changes whenever k does. Start projects the virtual start exactly, up to
// the next submission.
type VirtualSchedule struct {
	machines int64
	nowTick  int64
	active   int64 // k: users with a virtually unfinished campaign

	// level is V at levelTime, the last change of k: V(t) = level +
	// (t - levelTime) m / k until the next.
	level, levelTime *big.Rat
	// next is the time of the next virtual completion, nextTick the first
	// tick at or after it (math.MaxInt64 while k = 0).
	next     *big.Rat
	nextTick int64

	queue       [][]int    // per user: virtually unfinished campaigns, in order
	startLevel  []level    // per campaign: V at its virtual start
	finishLevel []level    // per campaign: V at its virtual completion
	userOf      []int      // per campaign; -1 until submitted
	start       []*big.Rat // per campaign: virtual start, nil while queued
	finish      []*big.Rat // per campaign: virtual completion, nil until then

	// changes counts submissions and virtual completions: while it stays
	// the same, so does every projected Start.
	changes uint64
}

// NewVirtualSchedule returns an empty virtual schedule of machines
// processors for users users and campaigns campaigns (identified by
// index).
func NewVirtualSchedule(machines, users, campaigns int) *VirtualSchedule {
	v := &VirtualSchedule{
		machines:    int64(machines),
		level:       new(big.Rat),
		levelTime:   new(big.Rat),
		nextTick:    math.MaxInt64,
		queue:       make([][]int, users),
		startLevel:  make([]level, campaigns),
		finishLevel: make([]level, campaigns),
		userOf:      make([]int, campaigns),
		start:       make([]*big.Rat, campaigns),
		finish:      make([]*big.Rat, campaigns),
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
	for v.nextTick <= tick {
		// The head campaigns with the least finish level complete
		// together at next, where V reaches it.
		done, reached := v.next, v.leastHeadLevel()
		v.levelTime, v.level = done, reached.exact
		for u, q := range v.queue {
			if len(q) == 0 || v.finishLevel[q[0]].cmp(reached) != 0 {
				continue
			}
			v.finish[q[0]] = done
			v.changes++
			v.queue[u] = q[1:]
			if len(v.queue[u]) == 0 {
				v.active--
			} else {
				v.start[v.queue[u][0]] = done
			}
		}
		v.plan()
	}
}

// Submit advances to tick and adds campaign c of user u with workTicks of
// work (processor-ticks, at least 1). It starts virtually now if the user
// has no virtually unfinished campaign, else after the last of them.
func (v *VirtualSchedule) Submit(c, u int, tick, workTicks int64) {
	if v.userOf[c] >= 0 {
		panic(fmt.Sprintf("campaign: campaign %d submitted twice to the virtual schedule", c))
	}
	if workTicks < 1 {
		// A campaign's jobs hold their processors at least a tick each;
		// rank's ordering by finish level counts on every campaign
		// completing after it starts.
		panic(fmt.Sprintf("campaign: campaign %d submitted to the virtual schedule with %d ticks of work; want >= 1", c, workTicks))
	}
	v.AdvanceTo(tick)
	v.changes++
	v.userOf[c] = u
	work := new(big.Rat).SetInt64(workTicks)
	if q := v.queue[u]; len(q) > 0 {
		// k and the heads stay as they are, so does the next completion.
		v.startLevel[c] = v.finishLevel[q[len(q)-1]]
		v.finishLevel[c] = newLevel(work.Add(work, v.startLevel[c].exact))
		v.queue[u] = append(q, c)
		return
	}
	now := new(big.Rat).SetInt64(tick)
	v.level, v.levelTime = v.levelAt(now), now
	v.startLevel[c] = newLevel(v.level)
	v.finishLevel[c] = newLevel(work.Add(work, v.level))
	v.start[c] = now
	v.active++
	v.queue[u] = append(v.queue[u], c)
	v.plan()
}

// levelAt returns V at time t (at or after levelTime, before the next
// change of k).
func (v *VirtualSchedule) levelAt(t *big.Rat) *big.Rat {
	if v.active == 0 {
		return v.level
	}
	served := new(big.Rat).Sub(t, v.levelTime)
	served.Mul(served, big.NewRat(v.machines, v.active))
	return served.Add(served, v.level)
}

// timeOf returns the time at which V reaches level (at or above the
// current level; k > 0), if k stays as it is.
func (v *VirtualSchedule) timeOf(level *big.Rat) *big.Rat {
	t := new(big.Rat).Sub(level, v.level)
	t.Mul(t, big.NewRat(v.active, v.machines))
	return t.Add(t, v.levelTime)
}

// leastHeadLevel returns the least finish level of the users' head
// campaigns (k > 0).
func (v *VirtualSchedule) leastHeadLevel() level {
	var least level
	for _, q := range v.queue {
		if len(q) > 0 && (least.exact == nil || v.finishLevel[q[0]].cmp(least) < 0) {
			least = v.finishLevel[q[0]]
		}
	}
	return least
}

// plan sets next and nextTick after a change of k or of the heads.
func (v *VirtualSchedule) plan() {
	if v.active == 0 {
		v.next, v.nextTick = nil, math.MaxInt64
		return
	}
	v.next = v.timeOf(v.leastHeadLevel().exact)
	v.nextTick = ceilTick(v.next)
}

// Completion returns campaign c's virtual completion: final once reached,
// otherwise now + k x (work left of c and of the user's campaigns before
// it) / m, that is the time at which V reaches c's finish level if k
// stays as it is.
func (v *VirtualSchedule) Completion(c int) *big.Rat {
	if v.finish[c] != nil {
		return v.finish[c]
	}
	if v.userOf[c] < 0 {
		panic(fmt.Sprintf("campaign: campaign %d is not in the virtual schedule", c))
	}
	return v.timeOf(v.finishLevel[c].exact)
}

// rank returns the key that orders submitted campaigns as Completion
// does, ties included: c's finish level. For the unfinished campaigns
// Completion is an increasing function of it (same now, k and V for all);
// the finished ones completed in the order of their levels, since V grows
// strictly while k > 0 and every campaign has work, and before now, while
// V has not yet reached the unfinished ones' levels.
func (v *VirtualSchedule) rank(c int) level { return v.finishLevel[c] }

// startsBefore reports whether campaign a starts virtually before b (both
// submitted and not yet started) in every projection of Start: it starts
// at a lower level, and Start is a non-decreasing function of that level.
func (v *VirtualSchedule) startsBefore(a, b int) bool {
	return v.startLevel[a].cmp(v.startLevel[b]) < 0
}

// Start returns campaign c's virtual start: final once started, otherwise
// the time at which the user's earlier campaigns complete virtually if no
// campaign is submitted meanwhile. Every active user is served at the same
// rate until its queue empties (processor sharing among users), so when
// user u has been served x more, every other user v has been served
// min(R_v, x), R_v its work left, and the start is now + sum_v min(R_v, x)
// / m with x the work left before c. In levels, x = L - V(now) with L c's
// start level (its predecessor's finish level), and R_v = L_v - V(now)
// with L_v the finish level of v's last campaign. Unlike Completion it follows the
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
	before := v.startLevel[c]
	now := new(big.Rat).SetInt64(v.nowTick)
	// The users still active at the start add before each: one product
	// rather than a sum of rationals each.
	served, stillActive := new(big.Rat), int64(0)
	for _, q := range v.queue {
		if len(q) == 0 {
			continue
		}
		if last := v.finishLevel[q[len(q)-1]]; last.cmp(before) < 0 {
			served.Add(served, last.exact)
		} else {
			stillActive++
		}
	}
	served.Add(served, new(big.Rat).Mul(before.exact, big.NewRat(stillActive, 1)))
	served.Sub(served, new(big.Rat).Mul(v.levelAt(now), big.NewRat(v.active, 1)))
	served.Quo(served, new(big.Rat).SetInt64(v.machines))
	return served.Add(served, now)
}

// started reports whether campaign c has started in the virtual schedule
// by the last tick it was advanced to.
func (v *VirtualSchedule) started(c int) bool { return v.start[c] != nil }

// A level is an exact service level with its nearest float64, which
// decides most comparisons without the rationals: rounding to nearest is
// monotone, so levels whose floats differ compare as their floats do, and
// only equal floats need the exact comparison.
type level struct {
	exact  *big.Rat
	approx float64
}

func newLevel(r *big.Rat) level {
	f, _ := r.Float64()
	return level{exact: r, approx: f}
}

func (a level) cmp(b level) int {
	if a.approx != b.approx {
		return cmp.Compare(a.approx, b.approx)
	}
	return a.exact.Cmp(b.exact)
}
