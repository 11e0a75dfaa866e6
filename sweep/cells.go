package sweep

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/sweep-sched/sweep/gen"
	"github.com/sweep-sched/sweep/gen/swf"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// Model versions are part of every cell's identity, one per model, so that
// resume never mixes results of two versions of a model while a change to
// one model leaves the others' finished cells valid. Bump a model's version
// when a change to its simulator, generators or measures changes what its
// cells compute.
const (
	// DAGModelVersion versions seed 004's grid model.
	DAGModelVersion = "1"
	// CampaignModelVersion versions the campaign model of seeds 000/001.
	// 2: the campaign summary's quantiles use stats.Quantile (numpy's
	// arithmetic), which moved campaign_stretch_trimmed_p99 by one unit in
	// the last place in 5 of the 140 synthetic cells.
	// 3 (issue 11): stretch-base bound divides by seed 001's max(W/m, pmax)
	// with pmax the longest job, no longer max(release + exec) (now
	// bound-release), which changes every trace campaign's stretch whose
	// jobs were submitted at different times; the default base is bound,
	// not alone; and the cells table has two more campaign columns, the
	// mean stretch at the cuts 20 and 100.
	CampaignModelVersion = "3"
	// MoldableModelVersion versions the moldable-task model of seed 002.
	MoldableModelVersion = "1"
	// RigidModelVersion versions the rigid-job fair-share model of seed
	// 003.
	RigidModelVersion = "1"
)

// ModelVersions names every model's version, for the Parquet metadata.
const ModelVersions = "dag=" + DAGModelVersion + " campaign=" + CampaignModelVersion + " moldable=" + MoldableModelVersion + " rigid=" + RigidModelVersion

// A Cell is one simulation: a workload instance at a load ratio on a
// platform under a policy.
type Cell struct {
	// ID is a stable hash of everything that defines the cell's result.
	ID        string
	Workload  string // the workload's label
	Generator string // the generator preset
	Instance  int
	// Replicate is the replicate the cell belongs to (0 to
	// Manifest.ReplicateCount()-1): the experiment under root seed
	// ReplicateSeed(seed, Replicate).
	Replicate int
	Load      float64 // 0 for campaign workloads, which have no load ratio
	Platform  string
	Policy    string
	// WorkloadSeed seeds the workload's generation. It derives from the
	// replicate's root seed, the generator parameters and the instance only, so every
	// load, platform and policy sees the same workload: cells are paired.
	WorkloadSeed [2]uint64
	// PolicySeed seeds the policy's own draws (the random policy); it
	// derives from the whole cell.
	PolicySeed uint64

	// Month is the trace month of a rigid (fair-share) cell, YYYY-MM;
	// its Instance is the month's index in the manifest's range.
	Month string

	spec    int // index into Manifest.Workloads
	group   int // index of the workload instance, shared by its cells
	variant rigid.Variant
	month   swf.Month
}

// Name returns the cell's human-readable name,
// workload/instance/load/platform/policy.
func (c Cell) Name() string {
	if c.Month != "" {
		return fmt.Sprintf("%s/%s/%s/%s", c.Workload, c.Month, c.Platform, c.Policy)
	}
	load := "-"
	if c.Load != 0 {
		load = formatLoad(c.Load)
	}
	name := fmt.Sprintf("%s/i%03d/L%s/%s/%s", c.Workload, c.Instance, load, c.Platform, c.Policy)
	if c.Replicate > 0 {
		name += fmt.Sprintf("/r%d", c.Replicate)
	}
	return name
}

// Cells expands the manifest into its cells, in a fixed order: by
// replicate, workload, instance, platform, load, then policy. Cells of one
// workload instance of a replicate are contiguous and share its group.
//
// A cell of replicate 0 has the id it had before replicates existed; a
// cell of replicate r > 0 hashes the replicate's root seed and number in
// their place. Trace workloads (campaign traces, rigid trace months) have
// cells in replicate 0 only: every root seed would replay the same jobs.
func (m *Manifest) Cells() []Cell {
	var cells []Cell
	group := 0
	for r := range m.ReplicateCount() {
		cells = m.replicateCells(cells, r, &group)
	}
	return cells
}

// replicateCells appends the cells of replicate r to cells.
func (m *Manifest) replicateCells(cells []Cell, r int, group *int) []Cell {
	net, _ := m.network()
	rootSeed := ReplicateSeed(m.Seed, r)
	for wi := range m.Workloads {
		w := &m.Workloads[wi]
		canon := m.sources[wi].canon
		if src := m.sources[wi]; src.rigid != nil || src.trace != nil {
			// A trace replays the same jobs under every root seed, so
			// its cells belong to replicate 0 only.
			if r > 0 {
				continue
			}
			if src.rigid != nil {
				cells = m.rigidCells(cells, wi, *group)
				*group++
				continue
			}
		}
		loads := m.Loads
		if m.sources[wi].loadFree() {
			loads = []float64{0} // closed loop or off-line: no load ratio
		}
		for inst := 0; inst < w.Instances; inst++ {
			seed := gen.InstanceSeed(rootSeed, canon, inst)
			for _, plat := range m.Platforms {
				platCanon := m.platform[plat].Canonical()
				for _, load := range loads {
					for _, pol := range m.Policies {
						c := Cell{Workload: w.Label, Generator: w.Generator, Instance: inst, Replicate: r, Load: load,
							Platform: plat, Policy: pol, WorkloadSeed: seed, spec: wi, group: *group}
						if m.excluded(c) {
							continue
						}
						version, model := DAGModelVersion, net.CCR+" "+string(net.Delay)
						if m.sources[wi].campaigns {
							version = CampaignModelVersion
							o := m.campaignSettings()
							model = "job-order=" + o.schedule.JobOrder + " stretch-base=" + o.stretchBase + " hold=" + o.schedule.Hold
						}
						if m.sources[wi].moldable != nil {
							version, model = MoldableModelVersion, m.moldableModel()
						}
						meaning := []string{
							"sweep-cell", version, m.Experiment, fmt.Sprint(rootSeed), canon, fmt.Sprint(inst),
							formatLoad(load), platCanon, model, pol,
						}
						if r > 0 {
							meaning = append(meaning, fmt.Sprintf("replicate=%d", r))
						}
						c.setID(meaning)
						cells = append(cells, c)
					}
				}
			}
			*group++
		}
	}
	return cells
}

// setID sets the cell's id and policy seed from everything that defines
// its result.
func (c *Cell) setID(meaning []string) {
	sum := sha256.Sum256([]byte(strings.Join(meaning, "\x00")))
	c.ID = hex.EncodeToString(sum[:12])
	c.PolicySeed = binary.BigEndian.Uint64(sum[12:20])
}

// excluded reports whether an exclusion matches the cell; a workload
// matches by its label, or for rigid cells also by the label of its
// manifest entry (without the estimate variant).
func (m *Manifest) excluded(c Cell) bool {
	for _, x := range m.Exclude {
		if (x.Workload == "" || x.Workload == c.Workload || x.Workload == m.Workloads[c.spec].Label) && (x.Platform == "" || x.Platform == c.Platform) &&
			(x.Policy == "" || x.Policy == c.Policy) && (x.Load == 0 || x.Load == c.Load) {
			return true
		}
	}
	return false
}

// A Shard selects a deterministic part of a manifest's cells: shard Index
// of Count (1-based, so Slurm's --array=1-N maps directly). Whole workload
// instances go to one shard, round robin, so each instance is generated by
// one process only. The zero Shard selects every cell.
type Shard struct{ Index, Count int }

// ParseShard parses "i/n".
func ParseShard(s string) (Shard, error) {
	var sh Shard
	if _, err := fmt.Sscanf(s, "%d/%d", &sh.Index, &sh.Count); err != nil || sh.Count < 1 || sh.Index < 1 || sh.Index > sh.Count || fmt.Sprintf("%d/%d", sh.Index, sh.Count) != s {
		return Shard{}, fmt.Errorf("--shard %q: want i/n with 1 <= i <= n, e.g. 2/8", s)
	}
	return sh, nil
}

func (sh Shard) contains(c Cell) bool {
	return sh.Count <= 1 || c.group%sh.Count == sh.Index-1
}

// Label names the shard in part file names: "s02of08", or "all".
func (sh Shard) Label() string {
	if sh.Count <= 1 {
		return "all"
	}
	return fmt.Sprintf("s%02dof%02d", sh.Index, sh.Count)
}
