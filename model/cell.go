package model

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
)

// A Cell is one simulation: a workload instance (at a load ratio) on a
// platform under a policy.
type Cell struct {
	// ID is a stable hash of everything that defines the cell's result.
	ID        string
	Workload  string // the workload's label
	Generator string // the generator preset, "" for traces
	Instance  int
	// Replicate is the replicate the cell belongs to: the experiment under
	// root seed RootSeed.
	Replicate int
	RootSeed  uint64
	Load      float64 // 0 for workloads without a load ratio
	Platform  string
	Policy    string
	// WorkloadSeed seeds the workload's generation. It derives from the
	// replicate's root seed, the generator parameters and the instance
	// only, so every load, platform and policy sees the same workload:
	// cells are paired.
	WorkloadSeed [2]uint64
	// PolicySeed seeds the policy's own draws; it derives from the whole
	// cell.
	PolicySeed uint64
	// Period names the part of a trace the cell replays (a month,
	// YYYY-MM) where the trace's periods stand in for instances and load
	// ratios; "" otherwise.
	Period string
	// Unit is the source's own handle on the cell's workload instance.
	Unit any
}

// Name returns the cell's human-readable name:
// workload/instance/load/platform/policy (and /rN in replicate N > 0), or
// workload/period/platform/policy for a trace period.
func (c Cell) Name() string {
	if c.Period != "" {
		return fmt.Sprintf("%s/%s/%s/%s", c.Workload, c.Period, c.Platform, c.Policy)
	}
	load := "-"
	if c.Load != 0 {
		load = FormatLoad(c.Load)
	}
	name := fmt.Sprintf("%s/i%03d/L%s/%s/%s", c.Workload, c.Instance, load, c.Platform, c.Policy)
	if c.Replicate > 0 {
		name += fmt.Sprintf("/r%d", c.Replicate)
	}
	return name
}

// MonthPeriod is the Period of a cell that replays the month yyyymm
// (UTC), as a cells table's month column holds it: "1996-10" for 199610;
// "" for 0, a whole workload.
func MonthPeriod(yyyymm int64) string {
	if yyyymm == 0 {
		return ""
	}
	return fmt.Sprintf("%04d-%02d", yyyymm/100, yyyymm%100)
}

// SetID sets the cell's id and policy seed from everything that defines
// its result, in a fixed order.
func (c *Cell) SetID(meaning []string) {
	sum := sha256.Sum256([]byte(strings.Join(meaning, "\x00")))
	c.ID = hex.EncodeToString(sum[:12])
	c.PolicySeed = binary.BigEndian.Uint64(sum[12:20])
}

// FormatLoad renders a load ratio as the shortest decimal that reads back
// the same.
func FormatLoad(l float64) string { return strconv.FormatFloat(l, 'g', -1, 64) }

// InstanceCells expands the cells of one generated workload instance:
// per platform, load (one 0 load when loads is empty) and policy, each
// identified as "sweep-cell", version, experiment, root seed, source
// canon, instance, load, platform canon, settings canon and policy (its
// name, with its parameters or command when the manifest gives them;
// with the replicate when > 0), the identity every generated workload
// has had.
func InstanceCells(ax Axes, version, canon, settings string, instance int, seed [2]uint64) []Cell {
	loads := ax.Loads
	if len(loads) == 0 {
		loads = []float64{0}
	}
	var cells []Cell
	for _, plat := range ax.Platforms {
		pc := ax.Env.Platforms[plat].Canonical()
		for _, load := range loads {
			for _, pol := range ax.Policies {
				c := Cell{Workload: ax.Label, Generator: ax.Generator, Instance: instance, Replicate: ax.Replicate,
					RootSeed: ax.RootSeed, Load: load, Platform: plat, Policy: pol, WorkloadSeed: seed}
				meaning := []string{"sweep-cell", version, ax.Experiment, fmt.Sprint(ax.RootSeed), canon, fmt.Sprint(instance),
					FormatLoad(load), pc, settings, ax.Env.PolicyMeaning(pol)}
				if ax.Replicate > 0 {
					meaning = append(meaning, fmt.Sprintf("replicate=%d", ax.Replicate))
				}
				c.SetID(meaning)
				cells = append(cells, c)
			}
		}
	}
	return cells
}

// Instances expands the cells of a source of generated instances in one
// replicate: one group per instance, each seeded by seedOf(root seed,
// canon, instance) (gen.InstanceSeed) and identified as InstanceCells
// does.
func Instances(ax Axes, version, canon string, seedOf func(rootSeed uint64, canon string, instance int) [2]uint64) [][]Cell {
	settings := ax.Settings.Canonical()
	var groups [][]Cell
	for inst := 0; inst < ax.Instances; inst++ {
		groups = append(groups, InstanceCells(ax, version, canon, settings, inst, seedOf(ax.RootSeed, canon, inst)))
	}
	return groups
}
