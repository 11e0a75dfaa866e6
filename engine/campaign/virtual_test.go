package campaign

import (
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestVirtualScheduleSeed000Example replays seed 000 Sec. IV-B (Fig. 2):
// 6 machines; users 1 and 2 submit at 0 with virtual completions 16 and 6,
// so with k = 2 (3 machines each) their works are W1 = 16x3 = 48 and
// W2 = 6x3 = 18. User 3 submits at 2 with completion 7 under k = 3
// (2 machines each): W3 = (7-2)x2 = 10. By then users 1 and 2 have each
// been served 2x3 = 6: 42 and 12 left, so 2 + 42/2 = 23 and 2 + 12/2 = 8.
// User 3's second campaign at 5 starts virtually at 7 and completes at 11
// under k = 3: its work is (11-7)x2 = 8.
func TestVirtualScheduleSeed000Example(t *testing.T) {
	const u1c1, u2c1, u3c1, u3c2 = 0, 1, 2, 3
	v := NewVirtualSchedule(6, 3, 4)
	want := func(what string, got *big.Rat, num, den int64) {
		t.Helper()
		if got.Cmp(big.NewRat(num, den)) != 0 {
			t.Errorf("%s = %s, want %d/%d", what, got.RatString(), num, den)
		}
	}
	v.Submit(u1c1, 0, 0, 48)
	v.Submit(u2c1, 1, 0, 18)
	want("t=0 C(1,1)", v.Completion(u1c1), 16, 1)
	want("t=0 C(2,1)", v.Completion(u2c1), 6, 1)

	v.Submit(u3c1, 2, 2, 10)
	if v.ActiveUsers() != 3 {
		t.Errorf("k(2) = %d, want 3", v.ActiveUsers())
	}
	want("t=2 C(3,1)", v.Completion(u3c1), 7, 1)
	want("t=2 C(1,1)", v.Completion(u1c1), 23, 1)
	want("t=2 C(2,1)", v.Completion(u2c1), 8, 1)

	v.Submit(u3c2, 2, 5, 8)
	want("t=5 start(3,2)", v.Start(u3c2), 7, 1)
	want("t=5 C(3,2)", v.Completion(u3c2), 11, 1)

	// At 7 user 3's first campaign completes and the second starts; k
	// stays 3, so nothing else moves.
	v.AdvanceTo(7)
	want("t=7 C(3,1)", v.Completion(u3c1), 7, 1)
	want("t=7 start(3,2)", v.Start(u3c2), 7, 1)
	want("t=7 C(3,2)", v.Completion(u3c2), 11, 1)

	// At 8 user 2 completes and k drops to 2: user 1 has 42 - 6x2 = 30
	// left, 8 + 30/3 = 18; user 3 has 8 - 1x2 = 6 left, 8 + 6/3 = 10.
	v.AdvanceTo(8)
	want("t=8 C(2,1)", v.Completion(u2c1), 8, 1)
	want("t=8 C(1,1)", v.Completion(u1c1), 18, 1)
	want("t=8 C(3,2)", v.Completion(u3c2), 10, 1)

	// After 10 user 1 is alone with 30 - 2x3 = 24 left: 10 + 24/6 = 14.
	v.AdvanceTo(20)
	want("final C(3,2)", v.Completion(u3c2), 10, 1)
	want("final C(1,1)", v.Completion(u1c1), 14, 1)
	if v.ActiveUsers() != 0 {
		t.Errorf("k(20) = %d, want 0", v.ActiveUsers())
	}
}

// TestVirtualScheduleRational: 3 machines, two users submit works 1 and 2
// at 0. k = 2, each served 3/2 per tick: the first completes at 2/3; the
// second has 2 - 1 = 1 left and, alone, completes at 2/3 + 1/3 = 1.
func TestVirtualScheduleRational(t *testing.T) {
	v := NewVirtualSchedule(3, 2, 2)
	v.Submit(0, 0, 0, 1)
	v.Submit(1, 1, 0, 2)
	v.AdvanceTo(5)
	if got := v.Completion(0); got.Cmp(big.NewRat(2, 3)) != 0 {
		t.Errorf("C0 = %s, want 2/3", got.RatString())
	}
	if got := v.Completion(1); got.Cmp(big.NewRat(1, 1)) != 0 {
		t.Errorf("C1 = %s, want 1", got.RatString())
	}
}

// TestVirtualStartProjection: 2 machines; at 0 user A submits a1 (work 4)
// and a2 (work 1, queued behind a1), user B submits b1 (work 1). Under
// k = 2 the paper's estimate of a1's completion is 0 + 2x4/2 = 4, but b1
// completes at 1 (rate 1), and A alone then finishes a1's 3 left at rate
// 2 by 1 + 3/2 = 5/2: Start(a2) = (min(5, 4) + min(1, 4))/2 = 5/2. If
// instead user D submits d1 (work 6) at 1, k stays 2 after b1: a1's 3
// left take 3 more, and Start(a2) = 1 + (min(4, 3) + min(6, 3))/2 = 4,
// later, and final once a1 completes at 4.
func TestVirtualStartProjection(t *testing.T) {
	const a1, b1, a2, d1 = 0, 1, 2, 3
	want := func(what string, got *big.Rat, num, den int64) {
		t.Helper()
		if got.Cmp(big.NewRat(num, den)) != 0 {
			t.Errorf("%s = %s, want %d/%d", what, got.RatString(), num, den)
		}
	}
	v := NewVirtualSchedule(2, 3, 4)
	v.Submit(a1, 0, 0, 4)
	v.Submit(b1, 1, 0, 1)
	v.Submit(a2, 0, 0, 1)
	want("t=0 C(a1)", v.Completion(a1), 4, 1)
	want("t=0 start(a2)", v.Start(a2), 5, 2)
	v.AdvanceTo(1)
	want("t=1 start(a2)", v.Start(a2), 5, 2)
	v.Submit(d1, 2, 1, 6)
	want("t=1 after d1 start(a2)", v.Start(a2), 4, 1)
	v.AdvanceTo(3)
	if v.started(a2) {
		t.Error("a2 started virtually by 3, want at 4")
	}
	want("t=3 start(a2)", v.Start(a2), 4, 1)
	v.AdvanceTo(4)
	if !v.started(a2) {
		t.Error("a2 not started virtually by 4")
	}
	want("t=4 start(a2)", v.Start(a2), 4, 1)
}

// sharingReference is the virtual schedule as its definition reads:
// every head campaign's work left, decreased at every step by what each
// active user is served. TestVirtualScheduleLevels checks the
// level-based VirtualSchedule against it.
type sharingReference struct {
	machines, now *big.Rat
	queue         [][]int
	remaining     []*big.Rat
	finish        []*big.Rat
}

func (r *sharingReference) active() int64 {
	k := int64(0)
	for _, q := range r.queue {
		if len(q) > 0 {
			k++
		}
	}
	return k
}

func (r *sharingReference) advanceTo(tick int64) {
	target := new(big.Rat).SetInt64(tick)
	for r.active() > 0 {
		k := big.NewRat(r.active(), 1)
		var least *big.Rat
		for _, q := range r.queue {
			if len(q) > 0 && (least == nil || r.remaining[q[0]].Cmp(least) < 0) {
				least = new(big.Rat).Set(r.remaining[q[0]])
			}
		}
		done := new(big.Rat).Mul(least, k)
		done.Quo(done, r.machines).Add(done, r.now)
		if done.Cmp(target) > 0 {
			served := new(big.Rat).Sub(target, r.now)
			served.Mul(served, r.machines).Quo(served, k)
			for _, q := range r.queue {
				if len(q) > 0 {
					r.remaining[q[0]].Sub(r.remaining[q[0]], served)
				}
			}
			break
		}
		r.now = done
		for u, q := range r.queue {
			if len(q) > 0 {
				if r.remaining[q[0]].Sub(r.remaining[q[0]], least).Sign() == 0 {
					r.finish[q[0]] = done
					r.queue[u] = q[1:]
				}
			}
		}
	}
	r.now = target
}

// completion is now + k x (work left up to c) / m, or c's completion.
func (r *sharingReference) completion(c, u int) *big.Rat {
	if r.finish[c] != nil {
		return r.finish[c]
	}
	left := new(big.Rat)
	for _, d := range r.queue[u] {
		left.Add(left, r.remaining[d])
		if d == c {
			break
		}
	}
	left.Mul(left, big.NewRat(r.active(), 1)).Quo(left, r.machines)
	return left.Add(left, r.now)
}

// start plays the schedule forward from now without submissions.
func (r *sharingReference) start(c, u int) *big.Rat {
	ahead := &sharingReference{machines: r.machines, now: new(big.Rat).Set(r.now), finish: make([]*big.Rat, len(r.finish))}
	for _, q := range r.queue {
		ahead.queue = append(ahead.queue, slices.Clone(q))
	}
	for _, x := range r.remaining {
		if x != nil {
			x = new(big.Rat).Set(x)
		}
		ahead.remaining = append(ahead.remaining, x)
	}
	// The head's projection assumes k stays; k can only drop, and the
	// head complete sooner, by the tick after it.
	pred := r.queue[u][slices.Index(r.queue[u], c)-1]
	for ahead.finish[pred] == nil {
		ahead.advanceTo(ceilTick(ahead.completion(ahead.queue[u][0], u)))
	}
	return ahead.finish[pred]
}

// TestVirtualScheduleLevels: on random submissions (3 to 5 machines, 4
// users, works 1-30, one tick at a time), the level-based virtual
// schedule agrees exactly with sharingReference on every campaign's
// Completion and Start, on k and on which have started; rank orders the
// campaigns as Completion does, ties included; and startsBefore never
// puts a later Start first.
func TestVirtualScheduleLevels(t *testing.T) {
	const users, campaigns = 4, 40
	for seed := uint64(1); seed <= 8; seed++ {
		rng := rand.New(rand.NewPCG(seed, 3))
		machines := 3 + rng.IntN(3)
		v := NewVirtualSchedule(machines, users, campaigns)
		ref := &sharingReference{machines: big.NewRat(int64(machines), 1), now: new(big.Rat),
			queue: make([][]int, users), remaining: make([]*big.Rat, campaigns), finish: make([]*big.Rat, campaigns)}
		userOf := make([]int, campaigns)
		submitted := 0
		for tick := int64(0); submitted < campaigns || v.ActiveUsers() > 0; tick++ {
			v.AdvanceTo(tick)
			ref.advanceTo(tick)
			for submitted < campaigns && rng.IntN(3) == 0 {
				c, u, work := submitted, rng.IntN(users), 1+rng.Int64N(30)
				v.Submit(c, u, tick, work)
				ref.queue[u] = append(ref.queue[u], c)
				ref.remaining[c] = big.NewRat(work, 1)
				userOf[c] = u
				submitted++
			}
			if got, want := int64(v.ActiveUsers()), ref.active(); got != want {
				t.Fatalf("seed %d tick %d: k = %d, want %d", seed, tick, got, want)
			}
			completion, start := make([]*big.Rat, submitted), make([]*big.Rat, submitted)
			for c := range submitted {
				u := userOf[c]
				completion[c] = v.Completion(c)
				if want := ref.completion(c, u); completion[c].Cmp(want) != 0 {
					t.Fatalf("seed %d tick %d: C(%d) = %s, want %s", seed, tick, c, completion[c].RatString(), want.RatString())
				}
				waiting := slices.Index(ref.queue[u], c) > 0
				if v.started(c) == waiting {
					t.Fatalf("seed %d tick %d: campaign %d started %v, want %v", seed, tick, c, v.started(c), !waiting)
				}
				if waiting {
					start[c] = v.Start(c)
					if want := ref.start(c, u); start[c].Cmp(want) != 0 {
						t.Fatalf("seed %d tick %d: start(%d) = %s, want %s", seed, tick, c, start[c].RatString(), want.RatString())
					}
				}
			}
			for c := range submitted {
				for d := range c {
					if got, want := v.rank(d).cmp(v.rank(c)), completion[d].Cmp(completion[c]); got != want {
						t.Fatalf("seed %d tick %d: rank(%d) vs rank(%d) %d, completions %d", seed, tick, d, c, got, want)
					}
					if start[c] != nil && start[d] != nil && v.startsBefore(d, c) && start[d].Cmp(start[c]) > 0 {
						t.Fatalf("seed %d tick %d: %d starts before %d, but at %s > %s", seed, tick, d, c, start[d].RatString(), start[c].RatString())
					}
				}
			}
		}
	}
}
