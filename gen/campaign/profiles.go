package campaign

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/sweep-sched/sweep/gen/grid"
	workload "github.com/sweep-sched/sweep/workload/campaign"
)

// ProfilesPreset is the name of the synthetic generator of seed 001.
const ProfilesPreset = "ostrich2013/profiles"

// ProfilesParams are the parameters of the ostrich2013/profiles generator
// (seed 001 Sec. 6). Times are ticks (seconds); ranges are inclusive.
type ProfilesParams struct {
	Jobs            int     // total jobs; paper 10,000
	Users           int     // paper: not stated; default 10
	ShortUsers      int     // users 1..ShortUsers are short, the rest long; default half
	NewCampaignProb float64 // each job after the first opens a new campaign with this probability; paper 0.02
	ShortMinTicks   int64   // short users' jobs: U[ShortMinTicks, ShortMaxTicks]; paper [1, 3600]
	ShortMaxTicks   int64
	LongMinTicks    int64 // long users' jobs; paper [3600, 36000]
	LongMaxTicks    int64
	ThinkTicks      int64 // think time before every campaign but a user's first; paper 0
}

// DefaultProfilesParams returns seed 001's parameters with 10 users, 5 of
// them short.
func DefaultProfilesParams() ProfilesParams {
	return ProfilesParams{
		Jobs: 10000, Users: 10, ShortUsers: 5, NewCampaignProb: 0.02,
		ShortMinTicks: 1, ShortMaxTicks: 3600, LongMinTicks: 3600, LongMaxTicks: 36000,
	}
}

// Validate reports the first parameter out of range, with the valid range.
func (p ProfilesParams) Validate() error {
	bad := func(name string, v any, want string) error {
		return fmt.Errorf("%s parameter %s = %v; want %s", ProfilesPreset, name, v, want)
	}
	switch {
	case p.Jobs < 1:
		return bad("jobs", p.Jobs, ">= 1")
	case p.Users < 1:
		return bad("users", p.Users, ">= 1")
	case p.ShortUsers < 0 || p.ShortUsers > p.Users:
		return bad("short-users", p.ShortUsers, fmt.Sprintf("in [0, users=%d]", p.Users))
	case !(p.NewCampaignProb >= 0 && p.NewCampaignProb <= 1):
		return bad("new-campaign-prob", p.NewCampaignProb, "in [0, 1]")
	case p.ShortMinTicks < 1 || p.ShortMaxTicks < p.ShortMinTicks:
		return bad("short-ticks", fmt.Sprintf("%d-%d", p.ShortMinTicks, p.ShortMaxTicks), "min >= 1 and max >= min")
	case p.LongMinTicks < 1 || p.LongMaxTicks < p.LongMinTicks:
		return bad("long-ticks", fmt.Sprintf("%d-%d", p.LongMinTicks, p.LongMaxTicks), "min >= 1 and max >= min")
	case p.ThinkTicks < 0:
		return bad("think", p.ThinkTicks, ">= 0")
	}
	return nil
}

// Keys returns the parameter names Set accepts, in the order Canonical
// prints them.
func (p ProfilesParams) Keys() []string {
	return []string{"jobs", "users", "short-users", "new-campaign-prob", "short-ticks", "long-ticks", "think"}
}

// Set sets the parameter named key (one of Keys) from its textual value,
// as a manifest gives it: jobs, users, short-users and think are
// integers, new-campaign-prob a number in [0, 1], short-ticks and
// long-ticks inclusive ranges "min-max" of ticks, such as "1-3600". Each
// key sets one field, so the order of calls does not matter; in
// particular setting users leaves short-users alone (default 5, half of
// the default 10 users), and Validate checks the two together.
func (p *ProfilesParams) Set(key, value string) error {
	bad := func(want string) error {
		return fmt.Errorf("%s parameter %q = %q: want %s", ProfilesPreset, key, value, want)
	}
	integer := func(least int64) (int64, error) {
		v, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
		if err != nil || v < least {
			return 0, bad(fmt.Sprintf("an integer >= %d", least))
		}
		return v, nil
	}
	switch key {
	case "jobs", "users":
		v, err := integer(1)
		if err != nil {
			return err
		}
		if v > math.MaxInt32 {
			return bad(fmt.Sprintf("an integer in [1, %d]", math.MaxInt32))
		}
		if key == "jobs" {
			p.Jobs = int(v)
		} else {
			p.Users = int(v)
		}
	case "short-users":
		v, err := integer(0)
		if err != nil {
			return err
		}
		if v > math.MaxInt32 {
			return bad("an integer in [0, users]")
		}
		p.ShortUsers = int(v)
	case "think":
		v, err := integer(0)
		if err != nil {
			return err
		}
		p.ThinkTicks = v
	case "new-campaign-prob":
		v, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil || !(v >= 0 && v <= 1) {
			return bad("a probability in [0, 1]")
		}
		p.NewCampaignProb = v
	case "short-ticks", "long-ticks":
		lo, hi, ok := strings.Cut(value, "-")
		a, errA := strconv.ParseInt(strings.TrimSpace(lo), 10, 64)
		b, errB := strconv.ParseInt(strings.TrimSpace(hi), 10, 64)
		if !ok || errA != nil || errB != nil || a < 1 || b < a {
			return bad(`a range "min-max" of ticks with 1 <= min <= max, such as "1-3600"`)
		}
		if key == "short-ticks" {
			p.ShortMinTicks, p.ShortMaxTicks = a, b
		} else {
			p.LongMinTicks, p.LongMaxTicks = a, b
		}
	default:
		return fmt.Errorf("%s: unknown parameter %q; valid parameters: %s", ProfilesPreset, key, strings.Join(p.Keys(), ", "))
	}
	return nil
}

// Canonical returns the parameters in a fixed textual form, for seeds and
// cell identities.
func (p ProfilesParams) Canonical() string {
	return fmt.Sprintf("%s jobs=%d users=%d short-users=%d new-campaign-prob=%s short-ticks=%d-%d long-ticks=%d-%d think=%d",
		ProfilesPreset, p.Jobs, p.Users, p.ShortUsers, strconv.FormatFloat(p.NewCampaignProb, 'g', -1, 64),
		p.ShortMinTicks, p.ShortMaxTicks, p.LongMinTicks, p.LongMaxTicks, p.ThinkTicks)
}

// GenerateProfiles builds instance number instance of p from the root
// seed; the random stream is grid.InstanceSeed(rootSeed, p.Canonical(),
// instance). Draws, job by job: for every job but the first, a uniform
// number that opens a new campaign when below NewCampaignProb; for a new
// campaign, its owner uniform among the users; then the job's length,
// uniform over its owner's range. Every campaign may be submitted at
// tick 0: the closed loop alone spaces a user's campaigns.
func GenerateProfiles(p ProfilesParams, rootSeed uint64, instance int) (*workload.Workload, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if instance < 0 {
		return nil, fmt.Errorf("generate %s: instance %d; want >= 0", ProfilesPreset, instance)
	}
	seed := grid.InstanceSeed(rootSeed, p.Canonical(), instance)
	rng := rand.New(rand.NewPCG(seed[0], seed[1]))
	w := &workload.Workload{Users: make([]workload.User, p.Users)}
	width := len(strconv.Itoa(p.Users))
	for u := range w.Users {
		w.Users[u] = workload.User{ID: fmt.Sprintf("u%0*d", width, u+1), Profile: workload.ProfileLong}
		if u < p.ShortUsers {
			w.Users[u].Profile = workload.ProfileShort
		}
	}
	seen := make([]bool, p.Users)
	for k := range p.Jobs {
		if k == 0 || rng.Float64() < p.NewCampaignProb {
			u := rng.IntN(p.Users)
			think := p.ThinkTicks
			if !seen[u] {
				think = 0
			}
			seen[u] = true
			w.Campaigns = append(w.Campaigns, workload.Campaign{User: u, ThinkTicks: think})
		}
		c := &w.Campaigns[len(w.Campaigns)-1]
		lo, hi := p.LongMinTicks, p.LongMaxTicks
		if w.Users[c.User].Profile == workload.ProfileShort {
			lo, hi = p.ShortMinTicks, p.ShortMaxTicks
		}
		c.Jobs = append(c.Jobs, workload.Job{ExecTicks: lo + rng.Int64N(hi-lo+1)})
	}
	return w, nil
}
