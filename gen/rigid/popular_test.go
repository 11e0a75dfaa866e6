package rigid

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestMergeUserTimes checks where the user's popular values go among the
// head values, worked by hand from the authors' rule.
func TestMergeUserTimes(t *testing.T) {
	for _, c := range []struct {
		name  string
		max   int64
		users []int64
		want  []int64
	}{
		{
			// 20 defaults, so 2 must go: round values (not among the
			// logs' joint ones) before joint ones, nearest pair first:
			// 9000 is 16200 from 7 h (25200), 3000 then 24600 from 27600.
			"replace", 36000, []int64{3000, 9000},
			[]int64{36000, 300, 600, 900, 1200, 1800, 3000, 3600, 7200, 9000, 10800, 14400, 18000, 21600,
				28800, 30000, 31200, 32400, 33600, 34800},
		},
		{"already there", 36000, []int64{3600, 36000}, headTimes(36000)},
		{
			// A 1-hour maximum has 12 defaults: the user's value fills a
			// free place.
			"fill", 3600, []int64{100},
			[]int64{3600, 100, 300, 600, 900, 1200, 1500, 1800, 2100, 2400, 2700, 3000, 3300},
		},
	} {
		var users []estimateBin
		for _, u := range c.users {
			users = append(users, estimateBin{seconds: u, jobs: 10, fixed: true})
		}
		if got := mergeUserTimes(headTimes(c.max), users); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestPopularHistogram: the user's values get exactly their shares of the
// jobs, the others fill the rest.
func TestPopularHistogram(t *testing.T) {
	p := DefaultEstimateParams()
	if err := p.Set("popular", "3600:30, 36000:40, 5400:2.5"); err != nil {
		t.Fatal(err)
	}
	for seed := range uint64(5) {
		hist, err := estimateHistogram(10000, &p, rand.New(rand.NewPCG(seed, 1)))
		if err != nil {
			t.Fatal(err)
		}
		got := map[int64]int{}
		total := 0
		for _, b := range hist {
			got[b.seconds] = b.jobs
			total += b.jobs
		}
		if got[3600] != 3000 || got[36000] != 4000 || got[5400] != 250 || total != 10000 || len(hist) != 90 {
			t.Errorf("seed %d: 1 h %d, 10 h %d, 1.5 h %d jobs, %d in all, %d values; want 3000, 4000, 250, 10000, 90",
				seed, got[3600], got[36000], got[5400], total, len(hist))
		}
	}
}

func TestPopularErrors(t *testing.T) {
	for _, c := range []struct {
		settings []string
		want     string
	}{
		{[]string{"popular=3600"}, "seconds:percent"},
		{[]string{"popular=3600:150"}, "seconds:percent"},
		{[]string{"popular=3600:10,3600:5"}, "distinct"},
		{[]string{"popular=3600:60,7200:50"}, "at most 100"},
		{[]string{"popular=40000:10"}, "at most max-estimate 36000 s"},
		{[]string{"popular=3600:10,7200:10", "bins=1"}, "bins 1: want at least the 2 popular values"},
	} {
		p := DefaultEstimateParams()
		err := p.SetAll(c.settings)
		if err == nil {
			_, err = estimateHistogram(1000, &p, rand.New(rand.NewPCG(1, 1)))
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want one containing %q", c.settings, err, c.want)
		}
	}
}
