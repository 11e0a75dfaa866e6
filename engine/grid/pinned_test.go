package grid_test

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"testing"

	"github.com/sweep-sched/sweep/engine/grid"
	gridgen "github.com/sweep-sched/sweep/gen/grid"
	"github.com/sweep-sched/sweep/platform"
)

// scheduleDigest is the SHA-256 of every task's cluster, start and finish
// and every job's arrival, start and finish: two digests agree only if the
// schedules are bit-identical.
func scheduleDigest(s *grid.Schedule) string {
	h := sha256.New()
	buf := make([]byte, 0, 1<<16)
	put := func(v int64) {
		buf = binary.LittleEndian.AppendUint64(buf, uint64(v))
		if len(buf) > 1<<16-8 {
			h.Write(buf)
			buf = buf[:0]
		}
	}
	for g := range s.TaskStart {
		put(int64(s.TaskCluster[g]))
		put(s.TaskStart[g])
		put(s.TaskFinish[g])
	}
	for j := range s.JobArrival {
		put(s.JobArrival[j])
		put(s.JobStart[j])
		put(s.JobFinish[j])
	}
	h.Write(buf)
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// nestedPlatform has routers two deep and clusters of unequal sizes, so
// that routing compares queue lengths over differing core counts and
// splits jobs by kind below the root.
const nestedPlatform = `
name: nested
children:
  - {cluster: a, cores: 300, kind: Kind1}
  - router: r
    children:
      - {cluster: b, cores: 200, kind: Kind1}
      - router: s
        children:
          - {cluster: c, cores: 100, kind: Kind2}
          - {cluster: d, cores: 40, kind: Kind2}
`

// pinnedPolicies are the built-in policies with the seeds pinned: random
// twice, the others once (they draw nothing).
var pinnedPolicies = []struct {
	policy string
	seed   uint64
}{
	{"random", 1}, {"random", 2}, {"fifo-task", 1}, {"fifo-job", 1},
	{"fairshare", 1}, {"lrtf", 1}, {"srtf", 1}, {"pslr", 1},
}

// The digests pin the schedules the simulator gave before its event loop
// was made faster (issue 25): instance 0 of every Table 2 preset at paper
// scale on burkimsher2013 at three loads, fan-chain also under the
// fastgridsim delay formula and on a nested platform. Every policy's
// schedule must stay bit-identical.
func TestPinnedTable2(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates 136 paper-scale schedules")
	}
	nested, err := platform.Decode([]byte(nestedPlatform))
	if err != nil {
		t.Fatal(err)
	}
	burk := platform.Burkimsher2013()
	fastgridsim := grid.Network{CCR: "0.2", Delay: grid.DelayFastgridsim}
	tests := []struct {
		preset   string
		platform *platform.Platform
		net      grid.Network
		load     float64
		want     []string // in pinnedPolicies order
	}{
		{"fan-chain", burk, grid.DefaultNetwork(), 0.8, []string{"9b01dda09e3fdd67", "09770ac47c101456", "1e949fb87841cfcb", "8becd646ccb2cdc9", "7b9a3af0cc851d0c", "5c0fbe7238bf9650", "2d4c4d5ff542ea0d", "0996ae4a8d1d778f"}},
		{"fan-chain", burk, grid.DefaultNetwork(), 1.0, []string{"e787544c34ca9498", "aab403d227e2006e", "ffb28e333af447fd", "d4410b5a3e08ec04", "5fd31939cb2d1859", "420d0caf08e2386f", "00f7654dfd948947", "2db1e5ad0d53e9dd"}},
		{"fan-chain", burk, grid.DefaultNetwork(), 1.2, []string{"179dd01458b894dc", "49ada3b28db1c702", "053d52418d8208f3", "e016c268c381e5fd", "9efc06a48ab11282", "ead798b30446aada", "9614d5f4a6145593", "c6730d9234dbfbbd"}},
		{"fan-chain", burk, fastgridsim, 1.2, []string{"51d64d31f0c2e118", "8fbca930b1abfb8a", "bd7d8ad7c3ca06f5", "245769cbdedbe447", "ee103eea01480165", "45b30eef2760bd91", "92253e6a25beed04", "6dbca3bf9078912b"}},
		{"fan-chain", nested, grid.DefaultNetwork(), 1.1, []string{"73d6c94acf9f01d5", "d9bd7de57e2bf2a6", "47eda9d65889429e", "5c946e53a2bff809", "885a45c76d1c1e23", "65298f715a76a547", "ec7f8ab4eb840130", "2dc5ad4ea82cc173"}},
		{"fan", burk, grid.DefaultNetwork(), 0.9, []string{"4f8dd8924e69232d", "468147ef01f857c3", "7d19a056eaf5f2fa", "ff2b2f3619e8c88f", "c860f90567c5e8ec", "99d4ee1e3349fec5", "e9c71e8399e8e37f", "dd2a51c5ee7db1ad"}},
		{"fan", burk, grid.DefaultNetwork(), 1.2, []string{"9a24820e05a0c92d", "de7c8a13acb8733d", "900f8166c53c1d79", "a84a5ed8d94a8351", "6c59cfeb13c938f1", "44defd8f7b438ca9", "02e1f9cead8bac41", "b455285672f9b83d"}},
		{"probabilistic", burk, grid.DefaultNetwork(), 0.8, []string{"9b82fee8963ef435", "9af4160211a83885", "82068ab2efaec808", "b8aa9d6a74f032e3", "8df88c7e46bc48fc", "f6d9d3b46c2eacb9", "78c5abf7c3ffb3ba", "bfcffb7da59c5085"}},
		{"probabilistic", burk, grid.DefaultNetwork(), 1.2, []string{"84eb2ea96b34db25", "3097612f1f691757", "d8b07306caa0b33a", "b02a58805493c0b3", "74cb6304feda1a1b", "2d04f78cf92f89b6", "d43b8380f8fee77a", "7c37600d84eee463"}},
		{"probabilistic", nested, grid.DefaultNetwork(), 1.0, []string{"ffbb0912abfd41d4", "335a947e0b7a4dbd", "3fc6eaff4c39848e", "cb4250d4ca1e47f6", "2fd063b89ac82281", "079940d32c505674", "c8cb085ba4c66e7b", "03f88069a88baa22"}},
		{"log-independent", burk, grid.DefaultNetwork(), 0.8, []string{"eaad2daf3b1fa101", "447949450a3f34fa", "ec0ebfdba29f1453", "ec0ebfdba29f1453", "e665b4576767a4f2", "3538000a4325742c", "7c095d658bc6676f", "c5579b2cf4680b09"}},
		{"log-independent", burk, grid.DefaultNetwork(), 1.0, []string{"21530ca0ab28a0bc", "545d91d4ae9ad587", "3db89a9f318a8092", "3db89a9f318a8092", "a430fea45bc08b45", "f4031df93adc7e87", "29cdc9a70318aa1a", "7b59dc2a12877944"}},
		{"log-independent", burk, grid.DefaultNetwork(), 1.2, []string{"5130387ac9bef4e5", "78a9af500d48e1d8", "b5959a6450e69226", "b5959a6450e69226", "2738074adb375a70", "e6dde48a0d5d6eec", "428bfd478839676e", "528befe8ff7194a3"}},
		{"uniform-independent", burk, grid.DefaultNetwork(), 0.9, []string{"c4e7427f196646d6", "5f8ad7e58d5546b7", "0a745a8ab058c44d", "0a745a8ab058c44d", "e2778571a67b6ca4", "160fc1cb2d075674", "e0d27f48d2938691", "6a90ddadcdc0d723"}},
		{"uniform-independent", burk, grid.DefaultNetwork(), 1.2, []string{"5aaeeda4d42b65a8", "3ab00d661c3628d1", "167cba3a6908c6ac", "167cba3a6908c6ac", "2e52c3290b9641cd", "549b6ed090f055c7", "71ecaff9349ea33c", "3ffc45701a1c9a77"}},
		{"uniform-independent", nested, grid.DefaultNetwork(), 1.2, []string{"eab234592e28dd98", "084b1c4d55b5e82c", "9c21fadcceaf8a3a", "9c21fadcceaf8a3a", "ca776c4645f5af80", "b9efa272efd51eb1", "600bb236381950f4", "fa3757b751f0e7b9"}},
		{"log-independent", nested, grid.DefaultNetwork(), 1.1, []string{"1129458d8b1476d0", "0aed298079ff6bf2", "9e38880c60c8b9c1", "9e38880c60c8b9c1", "4860494128bd7da1", "c7298aa090089ee0", "79ccae99193e5689", "a7e1aed44d8a1219"}},
	}
	for _, tt := range tests {
		p, err := gridgen.Lookup("burkimsher2013/" + tt.preset)
		if err != nil {
			t.Fatal(err)
		}
		w, err := gridgen.Generate(p.Defaults(), 2013, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := gridgen.SetArrivals(w, tt.platform.TotalCores(), tt.load); err != nil {
			t.Fatal(err)
		}
		in, err := grid.Compile(w, tt.platform, tt.net)
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("%s/%s/%s/L%v", tt.preset, tt.platform.Name, tt.net.Delay, tt.load)
		var got []string
		for i, pp := range pinnedPolicies {
			s, err := grid.Simulate(context.Background(), in, grid.Options{Policy: pp.policy, Seed: pp.seed})
			if err != nil {
				t.Fatal(err)
			}
			d := scheduleDigest(s)
			got = append(got, d)
			if i < len(tt.want) && d != tt.want[i] {
				t.Errorf("%s %s seed %d: digest %s, want %s", name, pp.policy, pp.seed, d, tt.want[i])
			}
		}
		if len(tt.want) != len(pinnedPolicies) {
			t.Errorf("%s: %d digests pinned; got %q", name, len(tt.want), got)
		}
	}
}

// The digests pin JobPriorityOrders (the orders of external decision
// processes) with a priority that is neither arrival nor index order: the
// job's critical path, longest first.
func TestPinnedJobPriority(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates paper-scale schedules")
	}
	longestFirst := func(v *grid.View, jobs []int) []float64 {
		out := make([]float64, len(jobs))
		for i, j := range jobs {
			out[i] = -float64(v.Instance().CriticalPath(j))
		}
		return out
	}
	for _, tt := range []struct {
		preset string
		load   float64
		want   string
	}{
		{"burkimsher2013/fan-chain", 1.2, "b635983620bb5887"},
		{"burkimsher2013/probabilistic", 1.0, "af2f710c40e693f8"},
	} {
		in := paperInstance(t, tt.preset, tt.load)
		s, err := grid.Simulate(context.Background(), in, grid.Options{Order: grid.JobPriorityOrders(longestFirst)})
		if err != nil {
			t.Fatal(err)
		}
		if got := scheduleDigest(s); got != tt.want {
			t.Errorf("%s at %v: digest %s, want %s", tt.preset, tt.load, got, tt.want)
		}
	}
}
