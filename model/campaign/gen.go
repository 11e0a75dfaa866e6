package campaign

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	gcampaign "github.com/sweep-sched/sweep/gen/campaign"
	"github.com/sweep-sched/sweep/model"
)

// Generate writes an instance of the campaign generator
// ostrich2013/profiles as campaign workload JSON. Campaigns submit in
// closed loop, so there is no load ratio to set.
func (Model) Generate(ctx context.Context, preset string, settings []string, seed uint64, instance int, arrivals model.Arrivals, out io.Writer) (string, error) {
	if arrivals.Load > 0 {
		return "", model.InputError{Err: fmt.Errorf("--load: %s is a closed-loop campaign workload, which has no load ratio", gcampaign.ProfilesPreset)}
	}
	params := gcampaign.DefaultProfilesParams()
	for _, kv := range settings {
		key, value, ok := strings.Cut(kv, "=")
		if !ok {
			return "", model.InputError{Err: fmt.Errorf("--set %q: want key=value (keys: %s)", kv, strings.Join(params.Keys(), ", "))}
		}
		if err := params.Set(key, value); err != nil {
			return "", model.InputError{Err: fmt.Errorf("--set: %w", err)}
		}
	}
	if err := params.Validate(); err != nil {
		return "", model.InputError{Err: err}
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	w, err := gcampaign.GenerateProfiles(params, seed, instance)
	if err != nil {
		return "", model.InputError{Err: err}
	}
	bw := bufio.NewWriter(out)
	if err := w.Encode(bw); err != nil {
		return "", err
	}
	jobs := 0
	for _, c := range w.Campaigns {
		jobs += len(c.Jobs)
	}
	return fmt.Sprintf("%d users, %d campaigns, %d jobs", len(w.Users), len(w.Campaigns), jobs), bw.Flush()
}
