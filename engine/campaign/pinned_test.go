package campaign_test

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"testing"

	ecampaign "github.com/sweep-sched/sweep/engine/campaign"
	"github.com/sweep-sched/sweep/engine/grid"
)

// scheduleDigest is the SHA-256 of every task's start and finish and every
// job's arrival, start and finish: two digests agree only if the schedules
// are bit-identical.
func scheduleDigest(s *grid.Schedule) string {
	var buf []byte
	for _, ticks := range [][]int64{s.TaskStart, s.TaskFinish, s.JobArrival, s.JobStart, s.JobFinish} {
		for _, v := range ticks {
			buf = binary.LittleEndian.AppendUint64(buf, uint64(v))
		}
	}
	sum := sha256.Sum256(buf)
	return hex.EncodeToString(sum[:])[:16]
}

// The digests pin the campaign schedules the engine gave before its event
// loop was made faster (issue 25): closed-loop and open-loop releases,
// staggered job releases and ostrich's wake-ups all go through it.
func TestPinnedRandomCampaigns(t *testing.T) {
	variants := []struct {
		policy string
		opts   ecampaign.Options
	}{
		{"fcfs", ecampaign.Options{}},
		{"fcfs", ecampaign.Options{Loop: ecampaign.LoopOpen}},
		{"ostrich", ecampaign.Options{}},
		{"ostrich", ecampaign.Options{Hold: ecampaign.HoldNone}},
		{"ostrich", ecampaign.Options{JobOrder: ecampaign.JobOrderLPT, Loop: ecampaign.LoopOpen}},
	}
	want := map[string]string{ // machines/policy/hold/job order/loop
		"1/fcfs///":           "957d704160bd46ad",
		"1/fcfs///open":       "2cc827e22bd4e084",
		"1/ostrich///":        "6b8ec053be5ea85d",
		"1/ostrich/none//":    "6647d0e929edf8ef",
		"1/ostrich//lpt/open": "08870d6baf706bce",
		"3/fcfs///":           "28d041dc6676e91b",
		"3/fcfs///open":       "f98cf0f8039f86ac",
		"3/ostrich///":        "340f7329e7ca88b3",
		"3/ostrich/none//":    "bfae5025a5d9f9c3",
		"3/ostrich//lpt/open": "7a0eac875b66259d",
		"7/fcfs///":           "ba63999a615f02ae",
		"7/fcfs///open":       "7646ee53841fdd87",
		"7/ostrich///":        "5792dcccc38e0cce",
		"7/ostrich/none//":    "4d7df8dab1b12cfd",
		"7/ostrich//lpt/open": "2608dd44d810c9aa",
	}
	for _, machines := range []int{1, 3, 7} {
		w := randomCampaigns(7, 12, 600, 4000)
		in, err := ecampaign.Compile(w, machines)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range variants {
			name := fmt.Sprintf("%d/%s/%s/%s/%s", machines, v.policy, v.opts.Hold, v.opts.JobOrder, v.opts.Loop)
			s, err := ecampaign.Simulate(context.Background(), in, w, v.policy, v.opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := scheduleDigest(s); got != want[name] {
				t.Errorf("%s: digest %s, want %s", name, got, want[name])
			}
		}
	}
}
