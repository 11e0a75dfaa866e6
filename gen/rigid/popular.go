package rigid

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// PopularEstimate is an estimate value a site's users are known to favour
// and the percent of jobs that use it: the model's user-supplied bins
// (EstParams_t's bins, given as a share instead of a job count). The model
// puts these values among the 20 most popular, with exactly these shares,
// and fits the rest around them.
type PopularEstimate struct {
	Seconds int64
	Percent float64
}

// parsePopular reads "seconds:percent,..." or "none".
func parsePopular(text string) ([]PopularEstimate, bool) {
	if text == "none" || text == "" {
		return nil, true
	}
	var out []PopularEstimate
	sum := 0.0
	for _, item := range strings.Split(text, ",") {
		sec, pct, ok := strings.Cut(strings.TrimSpace(item), ":")
		s, err1 := strconv.ParseInt(sec, 10, 64)
		p, err2 := strconv.ParseFloat(pct, 64)
		if !ok || err1 != nil || err2 != nil || s < 1 || !(p >= 0 && p <= 100) ||
			slices.ContainsFunc(out, func(e PopularEstimate) bool { return e.Seconds == s }) {
			return nil, false
		}
		out = append(out, PopularEstimate{s, p})
		sum += p
	}
	return out, len(out) <= headCount && sum <= 100
}

// formatPopular writes the list as parsePopular reads it.
func formatPopular(list []PopularEstimate) string {
	if len(list) == 0 {
		return "none"
	}
	parts := make([]string, len(list))
	for i, e := range list {
		parts[i] = strconv.FormatInt(e.Seconds, 10) + ":" + strconv.FormatFloat(e.Percent, 'g', -1, 64)
	}
	return strings.Join(parts, ",")
}

// userBins turns the popular values into job counts for n jobs, checked
// against the maximum estimate: at most 19 values below it (the head has
// 20 places, the maximum's its own).
func userBins(p *EstimateParams, n int) ([]estimateBin, error) {
	bins := make([]estimateBin, len(p.Popular))
	below := 0
	for i, e := range p.Popular {
		if e.Seconds > p.MaxEstimateSeconds {
			return nil, fmt.Errorf("%s: popular value %d s: want at most max-estimate %d s", TsafrirName, e.Seconds, p.MaxEstimateSeconds)
		}
		if e.Seconds < p.MaxEstimateSeconds {
			below++
		}
		bins[i] = estimateBin{seconds: e.Seconds, jobs: int(math.Round(e.Percent * float64(n) / 100)), fixed: true}
	}
	if below > headCount-1 {
		return nil, fmt.Errorf("%s: popular: %d values below max-estimate: want at most %d", TsafrirName, below, headCount-1)
	}
	return bins, nil
}

// mergeUserTimes puts the user's values among the head values
// (gen_head_bintim_merge): those already there stay; the others fill the
// free places up to 20, then replace default values other than the
// maximum, round values before joint ones, the nearest pair (user value,
// default value) first. The maximum stays first, the rest ascending.
func mergeUserTimes(defaults []int64, users []estimateBin) []int64 {
	var added []int64
	for _, u := range users {
		if !slices.Contains(defaults, u.seconds) {
			added = append(added, u.seconds)
		}
	}
	slices.Sort(added)
	need := max(0, len(added)-(headCount-len(defaults)))
	type pair struct{ user, def int64 }
	distance := func(p pair) int64 { return max(p.user-p.def, p.def-p.user) }
	var pool []pair
	replaced := map[int64]int64{} // default value -> the user value in its place
	placed := map[int64]bool{}    // user values that took a place
	for _, joint := range []bool{false, true} {
		for _, u := range added {
			for _, d := range defaults[1:] {
				if slices.Contains(jointEstimates, d) == joint {
					pool = append(pool, pair{u, d})
				}
			}
		}
		slices.SortFunc(pool, func(a, b pair) int {
			return cmp.Or(cmp.Compare(distance(a), distance(b)), cmp.Compare(a.user, b.user), cmp.Compare(a.def, b.def))
		})
		for len(pool) > 0 && len(replaced) < need {
			p := pool[0]
			pool = pool[1:]
			if _, taken := replaced[p.def]; !taken && !placed[p.user] {
				replaced[p.def], placed[p.user] = p.user, true
			}
		}
	}
	out := slices.Clone(defaults)
	for i, d := range out {
		if u, ok := replaced[d]; ok {
			out[i] = u
		}
	}
	for _, u := range added {
		if !placed[u] {
			out = append(out, u)
		}
	}
	slices.Sort(out[1:])
	return out
}

// headSizes returns the head's shares (percent), largest first
// (gen_head_binsiz): HeadA e^(HeadB r) + HeadC for ranks r = 2..count and
// the rest of HeadPercent for rank 1; or, when the user gives the
// maximum's share, that share and the others scaled to fill HeadPercent.
func headSizes(p *EstimateParams, count int, users []estimateBin, n int) ([]float64, error) {
	sizes := make([]float64, count)
	sum := 0.0
	for i := 1; i < count; i++ {
		sizes[i] = p.HeadA*math.Exp(p.HeadB*float64(i+1)) + p.HeadC
		sum += sizes[i]
	}
	if slices.ContainsFunc(sizes[1:], func(s float64) bool { return !(s > 0) }) {
		return nil, fmt.Errorf("%s: head-a, head-b, head-c: the shares of popularity ranks 2..%d must be > 0", TsafrirName, count)
	}
	sizes[0] = p.HeadPercent - sum
	if i := slices.IndexFunc(users, func(b estimateBin) bool { return b.seconds == p.MaxEstimateSeconds }); i >= 0 {
		sizes[0] = 100 * float64(users[i].jobs) / float64(n)
		f := max(0, (p.HeadPercent-sizes[0])/sum)
		for i := 1; i < count; i++ {
			sizes[i] *= f
		}
	} else if !(sizes[0] > 0) {
		return nil, fmt.Errorf("%s: head-a, head-b, head-c, head-percent: the shares of popularity ranks 2..%d sum to %.4g, want below head-percent %v",
			TsafrirName, count, sum, p.HeadPercent)
	}
	slices.SortFunc(sizes, func(a, b float64) int { return cmp.Compare(b, a) })
	return sizes, nil
}

// mergeUserSizes puts the user's shares among the head's sizes
// (gen_head_binsiz_merge): each user value, most jobs first, takes the
// free size nearest its share (the first, the maximum's, only for the
// maximum); the other sizes are scaled so that all sum to HeadPercent (or
// zeroed if the user's shares already exceed it); then all but the first
// are sorted, largest first. It returns the sizes and, per user value, the
// index of its size.
func mergeUserSizes(p *EstimateParams, sizes []float64, users []estimateBin, n int) ([]float64, []int) {
	owner := make([]int, len(sizes)) // size index -> user index + 1, 0: none
	order := make([]int, len(users))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(users[b].jobs, users[a].jobs) })
	share := func(u int) float64 { return 100 * float64(users[u].jobs) / float64(n) }
	for _, u := range order {
		closest := -1
		for k := range sizes {
			if owner[k] != 0 || (k == 0 && users[u].seconds != p.MaxEstimateSeconds) {
				continue
			}
			if closest < 0 || math.Abs(share(u)-sizes[k]) < math.Abs(share(u)-sizes[closest]) {
				closest = k
			}
		}
		owner[closest] = u + 1
	}
	out := slices.Clone(sizes)
	var userSum, otherSum float64
	for k := range out {
		if owner[k] != 0 {
			out[k] = share(owner[k] - 1)
			userSum += out[k]
		} else {
			otherSum += out[k]
		}
	}
	f := 0.0
	if userSum < p.HeadPercent && otherSum > 0 {
		f = (p.HeadPercent - userSum) / otherSum
	}
	for k := range out {
		if owner[k] == 0 {
			out[k] *= f
		}
	}
	return sortSizesKeepingFirst(out, owner, len(users))
}

// sortSizesKeepingFirst sorts sizes[1:] largest first, carrying each
// size's owner, and returns the sizes and each user's index.
func sortSizesKeepingFirst(sizes []float64, owner []int, users int) ([]float64, []int) {
	idx := make([]int, len(sizes)-1)
	for i := range idx {
		idx[i] = i + 1
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(sizes[b], sizes[a]) })
	out := []float64{sizes[0]}
	where := make([]int, users)
	if owner[0] != 0 {
		where[owner[0]-1] = 0
	}
	for pos, k := range idx {
		out = append(out, sizes[k])
		if owner[k] != 0 {
			where[owner[k]-1] = pos + 1
		}
	}
	return out, where
}
