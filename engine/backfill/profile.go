package backfill

// profile is the free processors of the cluster from now on as a step
// function: free[i] processors from times[i] until times[i+1] (the last
// step lasts forever). times[0] is now.
type profile struct {
	times []int64
	free  []int
}

// earliest returns the first time a job of n processors and dur seconds
// fits, and the step that starts then. The last step has every processor
// free, so a job that fits the cluster always fits.
func (p *profile) earliest(n int, dur int64) (start int64, step int) {
	times, free := p.times, p.free
	for i := 0; i < len(times); {
		if free[i] < n {
			i++
			continue
		}
		end := times[i] + dur
		j := i + 1
		for j < len(times) && times[j] < end && free[j] >= n {
			j++
		}
		if j == len(times) || times[j] >= end {
			return times[i], i
		}
		i = j + 1 // step j is too full; no start before it can fit
	}
	panic("backfill: profile ends without every processor free")
}

// placeInto writes into dst the profile p minus n processors from the
// start of step for dur seconds, and returns dst. dst must not share
// memory with p.
func (p *profile) placeInto(dst *profile, step int, dur int64, n int) {
	times, free := p.times, p.free
	end := times[step] + dur
	dst.times = append(dst.times[:0], times[:step]...)
	dst.free = append(dst.free[:0], free[:step]...)
	k := step
	for ; k < len(times) && times[k] < end; k++ {
		dst.times = append(dst.times, times[k])
		dst.free = append(dst.free, free[k]-n)
	}
	if k == len(times) || times[k] > end {
		dst.times = append(dst.times, end)
		dst.free = append(dst.free, free[k-1])
	}
	dst.times = append(dst.times, times[k:]...)
	dst.free = append(dst.free, free[k:]...)
}
