package grid

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"testing"

	gridengine "github.com/sweep-sched/sweep/engine/grid"
	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/platform"
)

// The digests pin what the grid model measured of each cell before its
// measures were made faster (issue 25): the cells-table values, the
// volume deciles and every job row, through the model as the runner uses
// it (one prepared instance, several loads and policies), each value as
// it is written.
func TestPinnedMeasures(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates paper-scale schedules")
	}
	env := model.Env{
		Platforms: map[string]*platform.Platform{"burkimsher2013": platform.Burkimsher2013()},
		Settings:  Network{gridengine.DefaultNetwork()},
	}
	tests := []struct {
		generator string
		instance  int
		want      map[string]string // load/policy -> digest
	}{
		{"burkimsher2013/fan-chain", 0, map[string]string{"0.8/random": "2559876f0a224409", "0.8/fifo-job": "26385e5b9d91a699", "0.8/fairshare": "9ef324f4918965ec", "0.8/srtf": "f424713ee344004c", "0.8/pslr": "2022b2815ef90b4c", "1.2/random": "2fc37f1d763a6b21", "1.2/fifo-job": "4cf83163f4c9fcf5", "1.2/fairshare": "d437be249b5c6b5d", "1.2/srtf": "af08ee931c394619", "1.2/pslr": "77124c781ed2261f"}},
		{"burkimsher2013/log-independent", 1, map[string]string{"0.8/random": "81efe9fd76c3d881", "0.8/fifo-job": "6b79841616060ceb", "0.8/fairshare": "25dd74af809f7884", "0.8/srtf": "1b8dfd961aea1cf3", "0.8/pslr": "4df93fa0ff669ddd", "1.2/random": "2d9f89ad595234d8", "1.2/fifo-job": "e19cc17cc66a1232", "1.2/fairshare": "6d11e6844d943adb", "1.2/srtf": "fd111baa9e44a6d8", "1.2/pslr": "83718a5011ff04a8"}},
		{"burkimsher2013/probabilistic", 2, map[string]string{"0.8/random": "557b5c08646f4462", "0.8/fifo-job": "26cd5884a6dfeb51", "0.8/fairshare": "180ff84a26b4c88b", "0.8/srtf": "bfb08b845ac4d522", "0.8/pslr": "6cf826cc91ff1d47", "1.2/random": "e17dce201051131a", "1.2/fifo-job": "801287e55805c205", "1.2/fairshare": "c667b48d7a08e9d7", "1.2/srtf": "b1265aad7a559e8f", "1.2/pslr": "c2f50892b5336ddc"}},
	}
	for _, tt := range tests {
		src, err := Model{}.NewSource(&model.WorkloadSpec{Generator: tt.generator}, env)
		if err != nil {
			t.Fatal(err)
		}
		cell := model.Cell{Workload: tt.generator, Generator: tt.generator, Instance: tt.instance, RootSeed: 2013, Platform: "burkimsher2013"}
		p, err := src.Prepare(context.Background(), cell, env)
		if err != nil {
			t.Fatal(err)
		}
		for _, load := range []float64{0.8, 1.2} {
			for _, policy := range []string{"random", "fifo-job", "fairshare", "srtf", "pslr"} {
				c := cell
				c.ID, c.Load, c.Policy, c.PolicySeed = fmt.Sprintf("cell-%v-%s", load, policy), load, policy, 7
				out, err := p.Simulate(context.Background(), c)
				if err != nil {
					t.Fatal(err)
				}
				m, err := out.Measure(model.Record{Jobs: true})
				if err != nil {
					t.Fatal(err)
				}
				h := sha256.New()
				for _, v := range m.Values {
					fmt.Fprintln(h, v.String())
				}
				for _, table := range slices.Sorted(maps.Keys(m.Children)) {
					child := m.Children[table]
					fmt.Fprintln(h, table, child.Len())
					for i := range child.Len() {
						for _, v := range child.Row(i) {
							fmt.Fprint(h, v.String(), " ")
						}
						fmt.Fprintln(h)
					}
				}
				key := fmt.Sprintf("%v/%s", load, policy)
				if got := hex.EncodeToString(h.Sum(nil))[:16]; got != tt.want[key] {
					t.Errorf("%s instance %d %s: digest %s, want %s", tt.generator, tt.instance, key, got, tt.want[key])
				}
			}
		}
	}
}
