package rigid

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	workload "github.com/sweep-sched/sweep/workload/rigid"
)

// headCount is the number of most popular estimate values (TOP).
const headCount = 20

const minute, hour = 60, 3600

// jointEstimates are the 15 values among the 20 most popular in all four
// logs the authors studied (EST_JOINT).
var jointEstimates = []int64{5 * minute, 10 * minute, 15 * minute, 20 * minute, 30 * minute,
	1 * hour, 2 * hour, 3 * hour, 4 * hour, 5 * hour, 6 * hour, 8 * hour, 10 * hour, 12 * hour, 18 * hour}

// roundSteps complete the head with multiples of these, largest step
// first, counting down from the maximum (EST_ROUND).
var roundSteps = []int64{200 * hour, 100 * hour, 50 * hour, 10 * hour, 5 * hour, 2 * hour, 1 * hour,
	20 * minute, 10 * minute, 5 * minute}

// timeRankToPopularity is the paper's table: for the head values ordered
// by time (0: the maximum, then ascending), the popularity rank each had
// in the four logs (SDSC, CTC, KTH, Blue Horizon), TIMRNK_TO_POPRNK.
var timeRankToPopularity = [headCount][4]int{
	{3, 1, 1, 1}, {1, 3, 4, 6}, {4, 4, 10, 5}, {17, 2, 14, 3}, {13, 12, 20, 7},
	{7, 9, 2, 2}, {8, 8, 3, 18}, {18, 18, 7, 19}, {2, 6, 12, 4}, {6, 7, 6, 11},
	{16, 11, 19, 20}, {10, 20, 5, 9}, {5, 16, 18, 10}, {15, 5, 16, 14}, {14, 14, 9, 13},
	{19, 13, 17, 16}, {11, 10, 15, 15}, {12, 15, 13, 17}, {9, 17, 8, 8}, {20, 19, 11, 12},
}

// headTimes returns the head values: the maximum first, then up to 19
// joint and round values below it, ascending (gen_head_bintim).
func headTimes(maxSeconds int64) []int64 {
	times := []int64{maxSeconds}
	for _, t := range jointEstimates {
		if t < maxSeconds {
			times = append(times, t)
		}
	}
	for _, step := range roundSteps {
		for t := maxSeconds / step * step; t > 0 && len(times) < headCount; t -= step {
			if !slices.Contains(times, t) {
				times = append(times, t)
			}
		}
	}
	slices.Sort(times[1:])
	return times
}

// headPercents maps each head value to its percent of the jobs
// (gen_head_map): the values and their sizes, each merged with the user's
// popular values, matched by popularity rank (a user value keeps the rank
// of its size).
func headPercents(p *EstimateParams, users []estimateBin, n int, rng *rand.Rand) (map[int64]float64, error) {
	times := mergeUserTimes(headTimes(p.MaxEstimateSeconds), users)
	sizes, err := headSizes(p, len(times), users, n)
	if err != nil {
		return nil, err
	}
	sizes, where := mergeUserSizes(p, sizes, users, n)
	fixed := map[int]int{} // time rank -> popularity rank
	for t, sec := range times {
		if u := slices.IndexFunc(users, func(b estimateBin) bool { return b.seconds == sec }); u >= 0 {
			fixed[t] = where[u] + 1
		}
	}
	ranks := fitRanks(popularityRanks(rng, fixed), len(times), fixed)
	out := make(map[int64]float64, len(times))
	for i, t := range times {
		out[t] = sizes[ranks[i]-1]
	}
	return out, nil
}

// popularityRanks draws the popularity rank (1..20) of each head value by
// time rank (gen_head_timrnk_poprnk_map): a user's value has its fixed
// rank; the maximum is the most popular; a rank that appeared no later
// than this time rank in any of the logs and is still free is taken,
// smallest first; otherwise the better of two random picks among the
// ranks the logs had up to this time rank, each counted once per log.
func popularityRanks(rng *rand.Rand, fixed map[int]int) []int {
	var latest [headCount + 1]int // popularity rank -> last time rank it appears at
	for t, row := range timeRankToPopularity {
		for _, r := range row {
			latest[r] = max(latest[r], t)
		}
	}
	var taken [headCount + 1]bool
	for _, r := range fixed {
		taken[r] = true
	}
	var pool []int
	ranks := make([]int, headCount)
	for t, row := range timeRankToPopularity {
		for _, r := range row {
			if !taken[r] {
				pool = append(pool, r)
			}
		}
		rank, ok := fixed[t]
		if !ok {
			rank = freeRank(rng, t, &taken, &latest, pool)
		}
		ranks[t], taken[rank] = rank, true
		pool = slices.DeleteFunc(pool, func(r int) bool { return r == rank })
	}
	return ranks
}

// freeRank chooses the popularity rank of time rank t among those not
// taken: 1 for the maximum (t = 0), else the smallest rank due by t, else
// the better of two picks from the pool (or, if it is empty, the smallest
// free rank).
func freeRank(rng *rand.Rand, t int, taken *[headCount + 1]bool, latest *[headCount + 1]int, pool []int) int {
	if t == 0 && !taken[1] {
		return 1
	}
	for r := 1; r <= headCount; r++ {
		if latest[r] <= t && !taken[r] {
			return r
		}
	}
	if len(pool) == 0 {
		return slices.Index(taken[1:], false) + 1
	}
	rank := 0
	for range 2 {
		if pick := pool[rng.IntN(len(pool))]; rank == 0 || pick < rank {
			rank = pick
		}
	}
	return rank
}

// fitRanks returns the ranks of the first n time ranks renumbered 1..n:
// fixed ones keep theirs, the others take the remaining ranks in the order
// of those drawn. With 20 head values this changes nothing; with fewer (a
// maximum below about 10 hours) the authors' code would index past its
// sizes, here the values keep their relative popularity.
func fitRanks(ranks []int, n int, fixed map[int]int) []int {
	out := slices.Clone(ranks[:n])
	used := make([]bool, n+1)
	var free []int
	for _, r := range fixed {
		used[r] = true
	}
	for r := 1; r <= n; r++ {
		if !used[r] {
			free = append(free, r)
		}
	}
	var open []int
	for t := range n {
		if _, ok := fixed[t]; !ok {
			open = append(open, t)
		}
	}
	slices.SortFunc(open, func(a, b int) int { return cmp.Compare(ranks[a], ranks[b]) })
	for i, t := range open {
		out[t] = free[i]
	}
	return out
}

// tailOffsets move a tail value off a value already taken (seconds).
var tailOffsets = []int64{0, 30, -30, 20, -20, 10, -10}

// tailPercents returns the tail values (count of them, fewer if some
// collide) with their percents: value (shape-1)x/(shape-x) of the maximum
// at time rank x, on whole minutes, and shares TailA*rank^TailB for ranks
// 21.., scaled to 100 - HeadPercent and matched to the values at random
// (gen_tail_map).
func tailPercents(p *EstimateParams, head map[int64]float64, count int, shape float64, rng *rand.Rand) map[int64]float64 {
	out := map[int64]float64{}
	var times []int64
	for i := 1; i <= count; i++ {
		x := float64(i) / float64(count)
		sec := int64(math.Round((shape-1)*x/(shape-x)*float64(p.MaxEstimateSeconds)/60) * 60)
		for _, off := range tailOffsets {
			s := sec + off
			_, inHead := head[s]
			_, inTail := out[s]
			if !inHead && !inTail && s > 0 && s < p.MaxEstimateSeconds {
				times = append(times, s)
				out[s] = 0
				break
			}
		}
	}
	sizes := make([]float64, len(times))
	sum := 0.0
	for i := range sizes {
		sizes[i] = p.TailA * math.Pow(float64(headCount+1+i), p.TailB)
		sum += sizes[i]
	}
	rng.Shuffle(len(sizes), func(i, j int) { sizes[i], sizes[j] = sizes[j], sizes[i] })
	for i, t := range times {
		out[t] = sizes[i] * (100 - p.HeadPercent) / sum
	}
	return out
}

// equalize makes the bins' job counts sum to n after rounding
// (adjust_njobs): the difference is spread over the bins but the user's,
// largest first,
// in proportion, then one job a bin, then down to one job, then to none.
func equalize(bins []estimateBin, n int) error {
	total, free := 0, 0
	for _, b := range bins {
		total += b.jobs
		if !b.fixed {
			free += b.jobs
		}
	}
	diff, sign := n-total, 1
	if diff < 0 {
		diff, sign = -diff, -1
	}
	order := make([]int, len(bins))
	for i := range order {
		order[i] = i
	}
	for attempt := 0; diff > 0; attempt++ {
		if attempt == 4 {
			return fmt.Errorf("%s: cannot make %d bins hold %d jobs", TsafrirName, len(bins), n)
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(bins[b].jobs, bins[a].jobs) })
		f := float64(diff) / float64(max(free, 1))
		for _, i := range order {
			if diff == 0 {
				break
			}
			if bins[i].fixed {
				continue
			}
			change := adjustment(attempt, bins[i].jobs, f, sign)
			change = min(change, diff)
			bins[i].jobs += sign * change
			diff -= change
		}
	}
	return nil
}

// adjustment is how many jobs one bin of jobs gives or takes in an
// attempt of equalize.
func adjustment(attempt, jobs int, f float64, sign int) int {
	if jobs == 0 {
		return 0
	}
	var a int
	switch attempt {
	case 0:
		a = int(math.Ceil(f * float64(jobs)))
	case 1:
		a = 1
	case 2:
		a = jobs - 1
	default:
		a = jobs
	}
	if sign < 0 {
		a = min(a, jobs)
		if a == jobs && attempt != 3 {
			a--
		}
	}
	return a
}

// assignEstimates gives the jobs the histogram's values (est_assign): run
// times above maxSeconds cut to it, then for each job, longest run first,
// a random one of the values not yet given that are at least its run time.
func assignEstimates(jobs []workload.Job, hist []estimateBin, maxSeconds int64, rng *rand.Rand) error {
	ests := make([]int64, 0, len(jobs))
	for i := len(hist) - 1; i >= 0; i-- {
		for range hist[i].jobs {
			ests = append(ests, hist[i].seconds)
		}
	}
	// The jobs, longest (cut) run first, then in input order.
	type entry struct {
		run   int64
		index int
	}
	order := make([]entry, len(jobs))
	for i := range jobs {
		order[i] = entry{min(jobs[i].RunSeconds, maxSeconds), i}
	}
	slices.SortFunc(order, func(a, b entry) int { return cmp.Or(cmp.Compare(b.run, a.run), cmp.Compare(a.index, b.index)) })
	for r, e := range order {
		if e.run > ests[r] {
			return fmt.Errorf("%s: the %d-th longest job (number %d, %d s) is longer than the %d-th largest estimate the model offers (%d s): too many long jobs for max-estimate %d s; raise it",
				TsafrirName, r+1, jobs[e.index].Number, e.run, r+1, ests[r], maxSeconds)
		}
	}
	hi := 0
	for r, e := range order {
		i := e.index
		jobs[i].RunSeconds = e.run
		for hi < len(ests)-1 && e.run <= ests[hi+1] {
			hi++
		}
		k := r + rng.IntN(hi-r+1)
		jobs[i].RequestedSeconds = ests[k]
		ests[k], ests[r] = ests[r], ests[k]
	}
	return nil
}
