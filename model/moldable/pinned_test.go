package moldable

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"runtime"
	"strconv"
	"testing"

	emoldable "github.com/sweep-sched/sweep/engine/moldable"
	"github.com/sweep-sched/sweep/engine/moldable/lpbound"
	gmoldable "github.com/sweep-sched/sweep/gen/moldable"
	"github.com/sweep-sched/sweep/model"
)

// pinnedDigest prepares instances 0 and 1 of a preset with n tasks as a
// run does, under the settings, and returns the SHA-256 of lambda*, p_min,
// the MRT allotment, the LP's value, iteration count and duals, and every
// algorithm's C_max, sum w C and schedule: two digests agree only if all
// of these are bit-identical (%v prints the shortest decimal that reads
// back as the same float64).
func pinnedDigest(t *testing.T, preset string, n int, opts emoldable.DEMTOptions) string {
	t.Helper()
	p, err := gmoldable.Lookup(preset)
	if err != nil {
		t.Fatal(err)
	}
	params := p.Defaults()
	if err := params.Set("tasks", strconv.Itoa(n)); err != nil {
		t.Fatal(err)
	}
	src := &source{params: params, canon: params.Canonical()}
	env := model.Env{Settings: Settings{opts}}
	h := sha256.New()
	for instance := range 2 {
		cell := model.Cell{Workload: preset, RootSeed: 2004, Instance: instance}
		prep, err := src.Prepare(context.Background(), cell, env)
		if err != nil {
			t.Fatal(err)
		}
		pr := prep.(*prepared)
		in := pr.instance
		fmt.Fprintf(h, "instance %d lambda* %v pmin %v lp %v\nmrt %v %v\n", instance, in.LambdaStar, in.PMin, pr.lpBound, in.MRT.Shelf, in.MRT.Processors)
		// The LP again, for its iterations and duals.
		lp, err := lpbound.New(in.Workload, emoldable.LPBoundaries(in.LambdaStar, in.PMin, opts.Anchor))
		if err != nil {
			t.Fatal(err)
		}
		sol, err := lp.Solve()
		if err != nil {
			t.Fatal(err)
		}
		if sol.Value != pr.lpBound {
			t.Errorf("%s n %d instance %d: LP value %v, prepared %v", preset, n, instance, sol.Value, pr.lpBound)
		}
		fmt.Fprintf(h, "iterations %d task duals %v row duals %v\n", sol.Iterations, sol.TaskDual, sol.RowDual)
		for k, alg := range emoldable.Algorithms() {
			cell.Policy, cell.PolicySeed = alg, uint64(1000*instance+k)
			out, err := pr.Simulate(context.Background(), cell)
			if err != nil {
				t.Fatal(err)
			}
			writeSchedule(h, alg, out.(*Outcome))
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

func writeSchedule(h hash.Hash, alg string, o *Outcome) {
	w := o.Prepared.instance.Workload
	fmt.Fprintf(h, "%s cmax %v sum %v\n", alg, o.Schedule.Makespan(), o.Schedule.WeightedCompletion(w))
	for i, p := range o.Schedule.Tasks {
		fmt.Fprintf(h, "%d %d %v %v\n", i, p.Processors, p.Start, p.End)
	}
}

// TestPinnedStudy pins what the moldable study computes per instance, on
// generated instances of its four workloads from n = 25 to the largest,
// 400, under the study's settings and under anchor pmin, tail double and
// strict lists: the digests were computed before the study was made
// faster (issue 25), and every number and schedule must stay
// bit-identical.
func TestPinnedStudy(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the digests pin amd64's arithmetic: the compiler fuses a*b+c into one rounding on arm64 and others")
	}
	study := emoldable.DefaultDEMTOptions()
	other := emoldable.DEMTOptions{Anchor: emoldable.AnchorPmin, Tail: emoldable.TailDouble,
		Variant: emoldable.VariantList, List: emoldable.ListStrict, Shuffles: 3}
	tests := []struct {
		preset string
		n      int
		opts   emoldable.DEMTOptions
		want   string
	}{
		{"dutot2004/uniform-weak", 25, study, "d2030d3ebd6d7758"},
		{"dutot2004/uniform-weak", 100, study, "5c591d3979472b81"},
		{"dutot2004/uniform-weak", 250, study, "48abb168b27143ef"},
		{"dutot2004/uniform-weak", 400, study, "f241ee618728ff6d"},
		{"dutot2004/uniform-high", 25, study, "d2449fd65c46e753"},
		{"dutot2004/uniform-high", 100, study, "89e1afa6d8580cef"},
		{"dutot2004/uniform-high", 250, study, "d3e8030cf91e3eba"},
		{"dutot2004/uniform-high", 400, study, "f4475a555a47e39d"},
		{"dutot2004/mixed", 25, study, "4a68035fea4a4fa0"},
		{"dutot2004/mixed", 100, study, "347d931a83ca79e3"},
		{"dutot2004/mixed", 250, study, "e2ffcb7140bf2b81"},
		{"dutot2004/mixed", 400, study, "4a2c5cd148b89366"},
		{"dutot2004/cirne-berman", 25, study, "a9334f3247131599"},
		{"dutot2004/cirne-berman", 100, study, "71ad478176a9342a"},
		{"dutot2004/cirne-berman", 250, study, "1f585348b898c636"},
		{"dutot2004/cirne-berman", 400, study, "e37d7bfe8f3ae0be"},
		{"dutot2004/uniform-weak", 150, other, "9fe5c54970d70ebd"},
		{"dutot2004/uniform-high", 150, other, "890f80f3bbedd911"},
		{"dutot2004/mixed", 400, other, "e89eb63072f7152e"},
		{"dutot2004/cirne-berman", 400, other, "81d8a64d20c2c3d7"},
	}
	for _, tt := range tests {
		if got := pinnedDigest(t, tt.preset, tt.n, tt.opts); got != tt.want {
			t.Errorf("%s n %d %s: digest %s, want %s", tt.preset, tt.n, Settings{tt.opts}.Canonical(), got, tt.want)
		}
	}
}
