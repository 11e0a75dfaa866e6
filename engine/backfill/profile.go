package backfill

import "slices"

// profile is the free processors of the cluster from now on as a step
// function: steps[i].free processors from steps[i].seconds until
// steps[i+1].seconds (the last step lasts forever). steps[0] is now.
//
// The planner changes one profile in place, reserving a job's slot on the
// way down a search path and releasing it on the way back, instead of
// copying the profile at every depth: a placement then costs the steps it
// covers plus one insertion, not the whole profile.
type profile struct {
	steps []step
	// known is how many steps from the first have maxFree up to date. A
	// reservation or release puts it back to its first step, and earliest
	// brings it forward only as far as a search needs: a job placed
	// after a narrower one is found in the steps already known, and the
	// steps after a reservation are seldom all read before the next.
	known int
}

// step is one piece of a profile; time and count side by side, so that
// the earliest-fit scan reads one array, in 16 bytes, so that an
// insertion moves two thirds of what 64-bit counts would.
type step struct {
	seconds int64
	free    int32
	// maxFree is the most processors free at any step up to this one
	// (profile.known says where it holds): it never decreases along the
	// profile, so the first step with room for n processors is found by
	// binary search instead of a scan over the full front of the profile
	// (most of it, at a long queue).
	maxFree int32
}

// reservation is what reserve changed, for release: the steps from first
// up to (not including) end lost procs processors, and a step was
// inserted at end if inserted.
type reservation struct {
	first, end int
	procs      int32
	inserted   bool
}

// earliest returns the first time a job of n processors and dur seconds
// fits, and the step that starts then. The last step has every processor
// free, so a job that fits the cluster always fits.
func (p *profile) earliest(n int32, dur int64) (start int64, first int) {
	steps := p.steps
	lo := 0
	if k := p.known; k > 0 && steps[k-1].maxFree >= n {
		hi := k - 1
		for lo < hi {
			mid := int(uint(lo+hi) >> 1)
			if steps[mid].maxFree < n {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
	} else {
		// The first step with room is past the known ones (the last step
		// has every processor free): scan for it, bringing maxFree up
		// to date on the way.
		var running int32
		if k > 0 {
			running = steps[k-1].maxFree
		}
		for lo = k; steps[lo].free < n; lo++ {
			running = max(running, steps[lo].free)
			steps[lo].maxFree = running
		}
		steps[lo].maxFree = steps[lo].free // above running, which is below n
		p.known = lo + 1
	}
	for i := lo; i < len(steps); {
		if steps[i].free < n {
			i++
			continue
		}
		end := steps[i].seconds + dur
		j := i + 1
		for j < len(steps) && steps[j].seconds < end && steps[j].free >= n {
			j++
		}
		if j == len(steps) || steps[j].seconds >= end {
			return steps[i].seconds, i
		}
		i = j + 1 // step j is too full; no start before it can fit
	}
	panic("backfill: profile ends without every processor free")
}

// reserve takes n processors from the start of step first for dur
// seconds, splitting the step where the job ends if no step starts then.
func (p *profile) reserve(first int, dur int64, n int32) reservation {
	steps := p.steps
	end := steps[first].seconds + dur
	k := first
	for ; k < len(steps) && steps[k].seconds < end; k++ {
		steps[k].free -= n
	}
	r := reservation{first: first, end: k, procs: n}
	if k == len(steps) || steps[k].seconds > end {
		split := step{seconds: end, free: steps[k-1].free + n}
		steps = append(steps, step{})
		copy(steps[k+1:], steps[k:])
		steps[k] = split
		p.steps = steps
		r.inserted = true
	}
	p.known = min(p.known, first)
	return r
}

// release undoes reserve; reservations are released in the reverse order
// of their making.
func (p *profile) release(r reservation) {
	if r.inserted {
		p.steps = slices.Delete(p.steps, r.end, r.end+1)
	}
	steps := p.steps[r.first:r.end]
	for k := range steps {
		steps[k].free += r.procs
	}
	p.known = min(p.known, r.first)
}
