package campaign

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	workload "github.com/sweep-sched/sweep/workload/campaign"
)

// TestGenerateProfilesStatistics checks seed 001's recipe on one default
// instance (10,000 jobs, 10 users, 5 short). Tolerances are 5 standard
// deviations of the estimate, so a correct generator fails about once in
// 1.7 million runs:
//   - campaigns = 1 + Binomial(9999, 0.02): mean 200.98, sd
//     sqrt(9999 x 0.02 x 0.98) = 14.0;
//   - mean short job ~ U[1, 3600]: 1800.5, sd 3599/sqrt(12)/sqrt(n);
//     mean long job ~ U[3600, 36000]: 19800, sd 32400/sqrt(12)/sqrt(n);
//   - share of campaigns owned by short users: 1/2, sd sqrt(0.25/n).
func TestGenerateProfilesStatistics(t *testing.T) {
	p := DefaultProfilesParams()
	w, err := GenerateProfiles(p, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Validate(); err != nil {
		t.Fatal(err)
	}
	if d := math.Abs(float64(len(w.Campaigns)) - 200.98); d > 5*14.0 {
		t.Errorf("%d campaigns, want 200.98 +- 70", len(w.Campaigns))
	}
	var sum, n [2]float64
	jobs, shortCampaigns := 0, 0
	for _, c := range w.Campaigns {
		short := w.Users[c.User].Profile == workload.ProfileShort
		lo, hi, k := int64(3600), int64(36000), 1
		if short {
			lo, hi, k = 1, 3600, 0
			shortCampaigns++
		}
		if c.SubmitTicks != 0 || c.ThinkTicks != 0 {
			t.Fatalf("campaign submit %d think %d, want 0 and 0", c.SubmitTicks, c.ThinkTicks)
		}
		for _, j := range c.Jobs {
			if j.ExecTicks < lo || j.ExecTicks > hi {
				t.Fatalf("%s job of %d ticks, outside [%d, %d]", w.Users[c.User].Profile, j.ExecTicks, lo, hi)
			}
			sum[k] += float64(j.ExecTicks)
			n[k]++
			jobs++
		}
	}
	if jobs != 10000 {
		t.Errorf("%d jobs, want 10000", jobs)
	}
	for k, ref := range []struct{ mean, width float64 }{{1800.5, 3599}, {19800, 32400}} {
		tol := 5 * ref.width / math.Sqrt(12) / math.Sqrt(n[k])
		if got := sum[k] / n[k]; math.Abs(got-ref.mean) > tol {
			t.Errorf("profile %d: mean job %g over %g jobs, want %g +- %g", k, got, n[k], ref.mean, tol)
		}
	}
	nc := float64(len(w.Campaigns))
	if share := float64(shortCampaigns) / nc; math.Abs(share-0.5) > 5*math.Sqrt(0.25/nc) {
		t.Errorf("short users own %g of campaigns, want 0.5 +- %g", share, 5*math.Sqrt(0.25/nc))
	}
	for u, user := range w.Users {
		want := workload.ProfileLong
		if u < 5 {
			want = workload.ProfileShort
		}
		if user.Profile != want {
			t.Errorf("user %s profile %q, want %q", user.ID, user.Profile, want)
		}
	}
}

func TestGenerateProfilesDeterministic(t *testing.T) {
	p := DefaultProfilesParams()
	p.Jobs = 500
	a, _ := GenerateProfiles(p, 7, 3)
	b, _ := GenerateProfiles(p, 7, 3)
	c, _ := GenerateProfiles(p, 7, 4)
	if !reflect.DeepEqual(a, b) {
		t.Error("same seed and instance gave different workloads")
	}
	if reflect.DeepEqual(a, c) {
		t.Error("instances 3 and 4 gave the same workload")
	}
	p.ShortUsers = 11
	if _, err := GenerateProfiles(p, 7, 0); err == nil {
		t.Error("11 short users of 10: no error")
	}
}

// TestProfilesParamsSet: every key of Keys sets its field from text, in
// Canonical's order and names, so that setting every key from the
// defaults' Canonical form changes nothing; bad keys and values are
// errors naming the key and what is valid.
func TestProfilesParamsSet(t *testing.T) {
	p := DefaultProfilesParams()
	for _, kv := range [][2]string{
		{"jobs", "500"}, {"users", "20"}, {"short-users", "10"}, {"new-campaign-prob", "0.05"},
		{"short-ticks", "2-7200"}, {"long-ticks", "7200-72000"}, {"think", "60"},
	} {
		if err := p.Set(kv[0], kv[1]); err != nil {
			t.Fatalf("Set(%q, %q): %v", kv[0], kv[1], err)
		}
	}
	want := ProfilesParams{Jobs: 500, Users: 20, ShortUsers: 10, NewCampaignProb: 0.05,
		ShortMinTicks: 2, ShortMaxTicks: 7200, LongMinTicks: 7200, LongMaxTicks: 72000, ThinkTicks: 60}
	if p != want {
		t.Errorf("after Set: %+v, want %+v", p, want)
	}
	if err := p.Validate(); err != nil {
		t.Error(err)
	}

	def := DefaultProfilesParams()
	again := ProfilesParams{}
	fields := strings.Fields(def.Canonical())[1:]
	var keys []string
	for _, f := range fields {
		k, v, _ := strings.Cut(f, "=")
		keys = append(keys, k)
		if err := again.Set(k, v); err != nil {
			t.Fatalf("Set(%q, %q) from Canonical: %v", k, v, err)
		}
	}
	if again != def {
		t.Errorf("set from Canonical %q: %+v, want %+v", def.Canonical(), again, def)
	}
	if !slices.Equal(keys, def.Keys()) {
		t.Errorf("Keys %v, Canonical's keys %v", def.Keys(), keys)
	}

	for _, tc := range []struct{ key, value, want string }{
		{"user", "10", "unknown parameter \"user\"; valid parameters: jobs, users, short-users, new-campaign-prob, short-ticks, long-ticks, think"},
		{"users", "0", `"users" = "0": want an integer >= 1`},
		{"jobs", "1e4", `"jobs" = "1e4": want an integer >= 1`},
		{"short-users", "-1", `"short-users" = "-1": want an integer >= 0`},
		{"new-campaign-prob", "1.5", `"new-campaign-prob" = "1.5": want a probability in [0, 1]`},
		{"short-ticks", "3600", `"short-ticks" = "3600": want a range "min-max"`},
		{"long-ticks", "36000-3600", `"long-ticks" = "36000-3600": want a range "min-max"`},
		{"think", "x", `"think" = "x": want an integer >= 0`},
	} {
		p := DefaultProfilesParams()
		err := p.Set(tc.key, tc.value)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Set(%q, %q): error %v, want one containing %q", tc.key, tc.value, err, tc.want)
		}
		if p != DefaultProfilesParams() {
			t.Errorf("Set(%q, %q) failed but changed the parameters to %+v", tc.key, tc.value, p)
		}
	}
}
