package backfill_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"testing"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/model/rigid/rigidtrace"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// kthTrace is the KTH SP2 log of seed 003 in the shared trace folder; it
// is never copied into the repository.
const kthTrace = "../../../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz"

// scheduleDigest is the SHA-256 of a schedule's start and end times, its
// EASY reservations and its work counts: two digests agree only if the
// schedules are bit-identical.
func scheduleDigest(s *backfill.Schedule) string {
	h := sha256.New()
	for i := range s.StartSeconds {
		fmt.Fprintf(h, "%d %d\n", s.StartSeconds[i], s.EndSeconds[i])
	}
	for _, r := range s.Reservations {
		fmt.Fprintf(h, "r %d %d %d\n", r.AtSeconds, r.Head, r.ShadowSeconds)
	}
	fmt.Fprintf(h, "tw %d stats %+v\n", s.TwSeconds, s.Stats)
	return hex.EncodeToString(h.Sum(nil))[:16]
}

var pinnedPolicies = map[string]backfill.Policy{
	"relshare":     backfill.RelShare(),
	"conservative": {Order: backfill.OrderRelShare, Allocation: backfill.AllocConservative},
	"tradeoff-fs":  backfill.TradeoffFS(),
	"fcfs-easy":    backfill.FCFSEasy(),
}

func checkDigests(t *testing.T, w *rigid.Workload, v rigid.Variant, want map[string]string) {
	t.Helper()
	for name, d := range want {
		sched, err := backfill.Simulate(context.Background(), w, v, pinnedPolicies[name])
		if err != nil {
			t.Fatal(err)
		}
		if got := scheduleDigest(sched); got != d {
			t.Errorf("%s %s %s: digest %s, want %s", w.Name, v, name, got, d)
		}
	}
}

// The digests pin the schedules the simulator gave before its planner was
// made faster (issue 25): starts, ends, reservations and work counts,
// placements included, must stay bit-identical.
func TestPinnedSyntheticMonth(t *testing.T) {
	checkDigests(t, syntheticMonth(), rigid.EstimateRequested, map[string]string{
		"relshare":     "c96ba5f51c19d69f",
		"conservative": "1a1f1dfabab86663",
		"tradeoff-fs":  "1d4342785577d932",
		"fcfs-easy":    "a4b3bc4b8a8aaeb4",
	})
}

func TestPinnedKTHMonths(t *testing.T) {
	if _, err := os.Stat(kthTrace); errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s is absent: download KTH-SP2-1996-2.1-cln.swf.gz from the Parallel Workloads Archive into ../shared/traces/ to run this (TestPinnedSyntheticMonth pins a synthetic month meanwhile)", kthTrace)
	}
	tr, err := rigidtrace.Load(kthTrace, rigidtrace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		month string
		v     rigid.Variant
		want  map[string]string
	}{
		{"1996-10", rigid.EstimateExact, map[string]string{"relshare": "14d65511d03d0d61", "conservative": "ff5af06341aaf795", "tradeoff-fs": "78fce2cebf2ad2e0", "fcfs-easy": "cb1052ea6a007d54"}},
		{"1997-01", rigid.EstimateRequested, map[string]string{"relshare": "6cc589b74dc6fcff", "conservative": "0e2176a1011e4f8f", "tradeoff-fs": "72ac4b5642eb13f5", "fcfs-easy": "2173f209f7fd40bc"}},
	}
	for _, tt := range tests {
		m, err := rigidtrace.ParseMonth(tt.month)
		if err != nil {
			t.Fatal(err)
		}
		mw, err := tr.Month(m)
		if err != nil {
			t.Fatal(err)
		}
		checkDigests(t, &mw.Workload, tt.v, tt.want)
	}
}

// TestPinnedSDSCMonth pins a month of the SDSC Blue Horizon log on its
// 1,152 processors: shorter queues of wider jobs than KTH's.
func TestPinnedSDSCMonth(t *testing.T) {
	if _, err := os.Stat(sdscTrace); errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s is absent: download SDSC-BLUE-2000-4.2-cln.swf.gz from the Parallel Workloads Archive into ../shared/traces/ to run this", sdscTrace)
	}
	tr, err := rigidtrace.Load(sdscTrace, rigidtrace.Options{Procs: 1152})
	if err != nil {
		t.Fatal(err)
	}
	mw, err := tr.Month(rigidtrace.Month{Year: 2000, Month: 12})
	if err != nil {
		t.Fatal(err)
	}
	checkDigests(t, &mw.Workload, rigid.EstimateExact, map[string]string{
		"relshare": "8b07602328a8d75e", "conservative": "b39be6bfb80ffd25", "tradeoff-fs": "2fe607c5f0585303", "fcfs-easy": "b7f6241393540531",
	})
}
