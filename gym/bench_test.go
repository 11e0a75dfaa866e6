package gym

import (
	"context"
	"os"
	"testing"
)

// sdscSP2 is the Parallel Workloads Archive's cleaned SDSC-SP2 log.
const sdscSP2 = "../../shared/traces/SDSC-SP2-1998-4.2-cln.swf.gz"

// BenchmarkDecision is one decision at the Go level, observe and step, on
// windows of 256 SDSC-SP2 jobs without backfilling, the agent picking
// slot 0; resets are included, one per 256 decisions.
func BenchmarkDecision(b *testing.B) {
	if _, err := os.Stat(sdscSP2); err != nil {
		b.Skipf("%s is absent", sdscSP2)
	}
	for _, preset := range []string{PresetSweep, PresetRLScheduler} {
		b.Run(preset, func(b *testing.B) {
			envs, err := NewEnvs(&Config{Workload: sdscSP2, Jobs: 256, Preset: preset})
			if err != nil {
				b.Fatal(err)
			}
			e := envs[0]
			obs, mask := make([]float32, e.cfg.Queue*e.Features()), make([]uint8, e.cfg.Queue)
			ctx := context.Background()
			if err := e.Reset(ctx, 1, -1); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				e.Observe(obs, mask)
				_, done, err := e.Step(ctx, 0)
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
