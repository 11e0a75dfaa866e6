package campaign

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, cmp.Compare)
	return keys
}

// Sample is the campaigns of one workload under one policy, from
// the campaigns table of a run that recorded it (record.campaigns).
type Sample struct {
	Workload, Policy string
	// Stretches are the stretches of every campaign of every successful
	// cell, ascending.
	Stretches []float64
	// UserMax holds, by user profile ("" for users without one), the max
	// campaign stretch of each user of each cell, ascending.
	UserMax map[string][]float64
}

// Profiles returns the profiles of s.UserMax in name order.
func (s Sample) Profiles() []string { return sortedKeys(s.UserMax) }

// ReadSamples reads the campaigns table of the results directory
// dir for the successful campaign cells of r, one sample per workload and
// policy with campaigns, in Workloads and then analysis.Result.Policies
// order. Rows of other cells (failed, or unknown to the cells table) are
// left out. It returns no sample when the run did not record campaigns;
// part files that cannot be read are returned as problems.
func ReadSamples(dir string, r *analysis.Result) ([]Sample, []parquet.Problem, error) {
	set, problems, err := parquet.ReadColumns(dir, table.Campaigns, []string{table.CellID, table.CampaignUser, table.CampaignProfile, table.CampaignStretch})
	if err != nil {
		return nil, nil, fmt.Errorf("reading campaigns: %w", err)
	}
	if set.Rows == 0 {
		return nil, problems, nil
	}
	if err := set.SortRows(table.CellID); err != nil {
		return nil, nil, fmt.Errorf("reading campaigns of %s: %w", dir, err)
	}
	for _, c := range set.Columns {
		want := store.TypeString
		if c.Name == table.CampaignStretch {
			want = store.TypeFloat64
		}
		if c.Type != want {
			return nil, nil, fmt.Errorf("reading campaigns of %s: column %q is %v; want %v", dir, c.Name, c.Type, want)
		}
	}
	cells := map[string]*analysis.Cell{}
	for _, g := range r.Pairing.Groups {
		for _, c := range g.Cells {
			if isCampaign(r, c) {
				cells[c.ID] = c
			}
		}
	}
	type key struct{ workload, policy string }
	type userKey struct{ cell, user string }
	stretches := map[key][]float64{}
	userMax := map[userKey]float64{}
	profileOf := map[userKey]string{}
	ids, users, profiles := set.Columns[0].Strings, set.Columns[1].Strings, set.Columns[2].Strings
	values := set.Columns[3].Float64s
	for i := range set.Rows {
		c := cells[ids[i]]
		if c == nil {
			continue
		}
		k := key{c.Workload, c.Policy}
		stretches[k] = append(stretches[k], values[i])
		if math.IsInf(values[i], 1) {
			continue // no work: no user maximum (see SummarizeCampaigns)
		}
		u := userKey{c.ID, users[i]}
		if old, ok := userMax[u]; !ok || values[i] > old {
			userMax[u] = values[i]
		}
		profileOf[u] = profiles[i]
	}
	var samples []Sample
	for _, workload := range Workloads(r) {
		for _, policy := range r.Policies {
			k := key{workload, policy}
			if len(stretches[k]) == 0 {
				continue
			}
			s := Sample{Workload: workload, Policy: policy, Stretches: stretches[k], UserMax: map[string][]float64{}}
			slices.Sort(s.Stretches)
			for u, m := range userMax {
				if c := cells[u.cell]; c.Workload == workload && c.Policy == policy {
					s.UserMax[profileOf[u]] = append(s.UserMax[profileOf[u]], m)
				}
			}
			for _, maxima := range s.UserMax {
				slices.Sort(maxima) // sorting makes the map's order irrelevant
			}
			samples = append(samples, s)
		}
	}
	return samples, problems, nil
}
