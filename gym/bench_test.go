package gym

import (
	"context"
	"fmt"
	"os"
	"testing"
)

// sdscSP2 is the Parallel Workloads Archive's cleaned SDSC-SP2 log.
const sdscSP2 = "../../shared/traces/SDSC-SP2-1998-4.2-cln.swf.gz"

// BenchmarkDecision is one decision at the Go level, observe and step, on
// windows of 256 SDSC-SP2 jobs without backfilling, under the fixed
// policies of scripts/gym-rlscheduler/bench_sweep.py: the agent picks slot
// 0, or the slot with the shortest request in the observation (sjf);
// resets are included, one per 256 decisions.
func BenchmarkDecision(b *testing.B) {
	if _, err := os.Stat(sdscSP2); err != nil {
		b.Skipf("%s is absent", sdscSP2)
	}
	// The column of the request (rlscheduler) or estimate (sweep).
	requestColumn := map[string]int{PresetSweep: 2, PresetRLScheduler: 1}
	for _, preset := range []string{PresetSweep, PresetRLScheduler} {
		for _, policy := range []string{"slot0", "sjf"} {
			b.Run(fmt.Sprintf("%s/%s", preset, policy), func(b *testing.B) {
				envs, err := NewEnvs(&Config{Workload: sdscSP2, Jobs: 256, Preset: preset})
				if err != nil {
					b.Fatal(err)
				}
				e := envs[0]
				f := e.Features()
				obs, mask := make([]float32, e.cfg.Queue*f), make([]uint8, e.cfg.Queue)
				ctx := context.Background()
				if err := e.Reset(ctx, 1, -1); err != nil {
					b.Fatal(err)
				}
				for b.Loop() {
					e.Observe(obs, mask)
					action := 0
					if policy == "sjf" {
						action = shortest(obs, mask, f, requestColumn[preset])
					}
					_, done, err := e.Step(ctx, action)
					if err != nil {
						b.Fatal(err)
					}
					if done {
						if err := e.Reset(ctx, -1, -1); err != nil {
							b.Fatal(err)
						}
					}
				}
			})
		}
	}
}

// shortest is the unmasked slot with the least value in column c, as
// bench_sweep.py's sjf policy picks it (the first of equals).
func shortest(obs []float32, mask []uint8, features, c int) int {
	best := 0
	for i := range mask {
		if mask[i] == 1 && (mask[best] == 0 || obs[i*features+c] < obs[best*features+c]) {
			best = i
		}
	}
	return best
}
