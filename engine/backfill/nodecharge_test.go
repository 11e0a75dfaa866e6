package backfill

import (
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/workload/rigid"
)

// RelShare's charges by hand on issue 34's machine (16 cores, 80 GiB =
// 81,920 MiB, 4 GPUs): a job holding 2 cores, 8 GiB and 2 GPUs of the GPU
// node is charged 2 (cores); its dominant share is max(2/16, 8192/81920,
// 2/4) = 0.5 of the machine, times 16 cores, in thousandths: 8000; Slurm's
// billing with weights 1 per core, 0.25 per GiB, 10 per GPU is 2 + 2 + 20
// = 24, in thousandths: 24000.
func TestChargeOf(t *testing.T) {
	m := &rigid.Machine{Partitions: []rigid.Partition{{Name: "cpu", Nodes: 2, Cores: 4, MemoryMiB: 8192},
		{Name: "gpu", Nodes: 1, Cores: 8, MemoryMiB: 65536, GPUs: 4}}}
	shares := []NodeShare{{Node: 2, Cores: 2, GPUs: 2, MemoryMiB: 8192}}
	for rule, want := range map[string]int64{"cores": 2, "dominant": 8000, "billing:1:0.25:10": 24000} {
		c, b, err := ParseChargeRule(rule)
		if err != nil {
			t.Fatal(err)
		}
		s := &sim{w: &rigid.Workload{Machine: m}, policy: Policy{Charge: c, Billing: b}}
		if got := s.chargeOf(shares); got != want {
			t.Errorf("%s: %d, want %d", rule, got, want)
		}
	}
	for rule, msg := range map[string]string{"billing": "want billing:CORE:GIB:GPU", "billing:1:x:2": "three weights >= 0",
		"cores:1": "only billing takes weights", "drf": `charge "drf": want cores`} {
		if _, _, err := ParseChargeRule(rule); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: %v, want %q", rule, err, msg)
		}
	}
}
