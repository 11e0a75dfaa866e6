package grid

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestPSLRTournamentMatchesBruteForce drives the kinetic tournament with
// random pushes and pops at increasing ticks, with ranks, arrivals and
// critical paths of paper magnitude (up to 1e10 ticks, so the cross
// products need 128 bits), and checks every head against a brute-force
// argmax of (now + rank + 1 - arrival) / CP computed with big.Rat, ties by
// task index. The queue swells to hundreds of tasks and drains to none
// every 400 steps, so that the tournament grows, and its top moves up and
// down.
func TestPSLRTournamentMatchesBruteForce(t *testing.T) {
	for _, scale := range []int64{10, 1000, 1e10} {
		r := rand.New(rand.NewPCG(uint64(scale), 3))
		const tasks = 3000
		in := &Instance{rank: make([]int64, tasks), task: make([]taskInfo, tasks), jobCP: make([]int64, tasks)}
		s := &sim{in: in, arrival: make([]int64, tasks)}
		for g := 0; g < tasks; g++ {
			in.task[g].job = int32(g)
			in.jobCP[g] = 1 + r.Int64N(scale)
			in.rank[g] = 1 + r.Int64N(in.jobCP[g])
		}
		o := newPSLROrder(&View{s})
		queued := map[int32]bool{}
		now, next := int64(0), int32(0)
		for step := 0; step < 6000; step++ {
			now += r.Int64N(scale/10 + 2)
			o.BeginPass(now)
			swelling := step%400 < 250
			if next < tasks && (len(queued) == 0 || (swelling && r.IntN(3) > 0) || (!swelling && r.IntN(4) == 0)) {
				s.arrival[next] = now - r.Int64N(scale/5+1)
				if s.arrival[next] < 0 {
					s.arrival[next] = 0
				}
				o.Push(next, now)
				queued[next] = true
				next++
			}
			if len(queued) == 0 {
				if _, ok := o.Head(); ok {
					t.Fatalf("scale %d step %d: head of an empty order", scale, step)
				}
				continue
			}
			want, best := int32(-1), new(big.Rat)
			for g := range queued {
				v := big.NewRat(now+in.rank[g]+1-s.arrival[g], in.jobCP[g])
				if c := v.Cmp(best); want < 0 || c > 0 || (c == 0 && g < want) {
					want, best = g, v
				}
			}
			got, ok := o.Head()
			if !ok || got != want {
				t.Fatalf("scale %d step %d tick %d: head %d, want %d", scale, step, now, got, want)
			}
			if !swelling || r.IntN(2) == 0 {
				o.Pop()
				delete(queued, got)
			}
			if o.Len() != len(queued) {
				t.Fatalf("len %d, want %d", o.Len(), len(queued))
			}
		}
	}
}

// BenchmarkPSLRQueue measures one pass step at overload: advance the
// clock, start the head, and push a newly ready task, on a ready queue held
// at n tasks. A rescan per started task would make ns/op grow linearly in
// n; the tournament's grows with log n.
func BenchmarkPSLRQueue(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		b.Run(fmt.Sprintf("queue=%d", n), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			total := n + b.N
			in := &Instance{rank: make([]int64, total), task: make([]taskInfo, total), jobCP: make([]int64, total)}
			s := &sim{in: in, arrival: make([]int64, total)}
			for g := 0; g < total; g++ {
				in.task[g].job = int32(g)
				in.jobCP[g] = 1 + r.Int64N(1e7)
				in.rank[g] = 1 + r.Int64N(in.jobCP[g])
			}
			o := newPSLROrder(&View{s})
			now := int64(0)
			for g := 0; g < n; g++ {
				s.arrival[g] = now
				o.Push(int32(g), now)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				now += 1 + r.Int64N(1000)
				o.BeginPass(now)
				o.Pop()
				g := int32(n + i)
				s.arrival[g] = now
				o.Push(g, now)
			}
		})
	}
}

// TestPSLROvertakesMatchesBruteForce checks the closed-form certificate of
// the tournament against its definition, in big.Rat: for random pairs of
// tasks, with magnitudes from tens of ticks to workload.MaxTicks, where the
// winner precedes the loser now, the loser does not precede at the tick
// before the one returned and does at that tick (ties by task index); when
// it returns never, the loser does not precede at never - 1.
func TestPSLROvertakesMatchesBruteForce(t *testing.T) {
	precedes := func(a, b pslrSlot, tick int64) bool {
		va := new(big.Rat).SetFrac(new(big.Int).Add(big.NewInt(tick), big.NewInt(a.c)), big.NewInt(a.cp))
		vb := new(big.Rat).SetFrac(new(big.Int).Add(big.NewInt(tick), big.NewInt(b.c)), big.NewInt(b.cp))
		c := va.Cmp(vb)
		return c > 0 || (c == 0 && a.task < b.task)
	}
	r := rand.New(rand.NewPCG(4, 5))
	ties, finite := 0, 0
	for _, scale := range []int64{10, 1000, 1e10, 1 << 40, 1 << 62} {
		for range 20000 {
			now := r.Int64N(scale)
			o := &pslrOrder{now: now, slots: make([]pslrSlot, 2)}
			for i := range o.slots {
				cp := 1 + r.Int64N(scale)
				rank := 1 + r.Int64N(cp)
				arrival := now - r.Int64N(now+1) // <= now, >= 0
				if r.IntN(4) == 0 {
					arrival = now // ties of values are likely among small numbers
				}
				o.slots[i] = pslrSlot{c: rank + 1 - arrival, cp: cp, task: int32(i)}
			}
			w, l := int32(0), int32(1)
			if !o.precedes(w, l, now) {
				w, l = l, w
			}
			if precedes(o.slots[l], o.slots[w], now) {
				t.Fatalf("slots %+v at %d: precedes disagrees with big.Rat", o.slots, now)
			}
			got := o.overtakes(l, w)
			if got == never {
				if precedes(o.slots[l], o.slots[w], never-1) {
					t.Fatalf("slots %+v at %d: overtakes never, but the loser precedes at %d", o.slots, now, int64(never-1))
				}
				continue
			}
			finite++
			if got <= now || !precedes(o.slots[l], o.slots[w], got) || (got-1 > now && precedes(o.slots[l], o.slots[w], got-1)) {
				t.Fatalf("slots %+v at %d: overtakes at %d, not the first tick the loser precedes", o.slots, now, got)
			}
			sl, sw := o.slots[l], o.slots[w]
			if new(big.Int).Mul(big.NewInt(got+sl.c), big.NewInt(sw.cp)).Cmp(new(big.Int).Mul(big.NewInt(got+sw.c), big.NewInt(sl.cp))) == 0 {
				ties++
			}
		}
	}
	if finite < 10000 || ties < 50 {
		t.Errorf("%d finite certificates, %d of them at a tie: too few to test", finite, ties)
	}
	t.Logf("%d finite certificates, %d at a tie", finite, ties)
}
