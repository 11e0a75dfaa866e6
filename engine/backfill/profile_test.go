package backfill

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/workload/rigid"
)

// scanEarliest is the earliest fit by a plain scan of every start, the
// reference the profile's search must agree with.
func scanEarliest(steps []step, n int32, dur int64) int64 {
	for i := range steps {
		fits := true
		for j := i; j < len(steps) && steps[j].seconds < steps[i].seconds+dur; j++ {
			if steps[j].free < n {
				fits = false
				break
			}
		}
		if fits {
			return steps[i].seconds
		}
	}
	return -1
}

// TestProfileReserveRelease places random jobs on a random profile down a
// path and backs out of it, checking at every step the earliest fit
// against a plain scan, maxFree against its definition where it is
// known, the memo's hash
// as reserve updates it against the hash computed afresh, and that each
// release gives back the profile as it was.
func TestProfileReserveRelease(t *testing.T) {
	const procs = 16
	rng := rand.New(rand.NewPCG(25, 2))
	for trial := range 200 {
		var p profile
		free, at := rng.IntN(procs+1), int64(0)
		for free < procs {
			p.steps = append(p.steps, step{seconds: at, free: int32(free)})
			at += 1 + rng.Int64N(20)
			free = min(procs, free+rng.IntN(5))
		}
		p.steps = append(p.steps, step{seconds: at, free: procs})
		var undo []reservation
		var before [][]step
		for range 1 + rng.IntN(12) {
			checkMaxFree(t, trial, &p)
			n, dur := 1+rng.Int32N(procs), 1+rng.Int64N(40)
			start, first := p.earliest(n, dur)
			if want := scanEarliest(p.steps, n, dur); start != want || p.steps[first].seconds != start {
				t.Fatalf("trial %d: earliest(%d, %d) = %d at step %d, want %d", trial, n, dur, start, first, want)
			}
			before = append(before, append([]step(nil), p.steps...))
			nmin := 1 + rng.Int32N(4)
			hash := p.stateHash(nmin)
			undo = append(undo, p.reserve(first, dur, n))
			if got, want := hash+p.reservedHash(undo[len(undo)-1], nmin), p.stateHash(nmin); got != want {
				t.Fatalf("trial %d: the hash after reserve(%d, %d, %d) at nmin %d is %x updated, %x computed", trial, first, dur, n, nmin, got, want)
			}
		}
		for i := len(undo) - 1; i >= 0; i-- {
			p.release(undo[i])
			checkMaxFree(t, trial, &p)
			if len(p.steps) != len(before[i]) {
				t.Fatalf("trial %d: release %d left %d steps, want %d", trial, i, len(p.steps), len(before[i]))
			}
			for k := range p.steps {
				if got, want := p.steps[k], before[i][k]; got.seconds != want.seconds || got.free != want.free {
					t.Fatalf("trial %d: release %d: step %d is %+v, want %+v", trial, i, k, p.steps[k], before[i][k])
				}
			}
		}
	}
}

// checkMaxFree checks maxFree where the profile says it holds.
func checkMaxFree(t *testing.T, trial int, p *profile) {
	t.Helper()
	var running int32
	for k, s := range p.steps[:p.known] {
		running = max(running, s.free)
		if s.maxFree != running {
			t.Fatalf("trial %d: step %d maxFree %d, want %d", trial, k, s.maxFree, running)
		}
	}
}

// The profile counts processors in 32 bits: a larger cluster is refused,
// not wrapped around.
func TestPlannerRefusesHugeCluster(t *testing.T) {
	w := &rigid.Workload{Name: "huge", Procs: math.MaxInt32 + 1, Jobs: []rigid.Job{{Number: 1, Procs: 1, RunSeconds: 1, RequestedSeconds: 1}}}
	for _, p := range []Policy{TradeoffFS(), {Allocation: AllocConservative}} {
		_, err := Simulate(context.Background(), w, rigid.EstimateExact, p)
		if want := "2147483648 processors: the planner takes at most 2147483647"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%+v: got %v, want %q", p, err, want)
		}
	}
	if _, err := Simulate(context.Background(), w, rigid.EstimateExact, RelShare()); err != nil {
		t.Errorf("relshare: %v", err)
	}
}
