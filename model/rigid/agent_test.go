package rigid

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/engine/backfill"
	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/workload/rigid"
)

// slotZeroAgent is a trained agent's process reduced to the framing
// (docs/gym.md): it reads the setup line, then each frame, and answers slot
// 0, the first waiting job in submit order: fcfs.
const slotZeroAgent = `import json, struct, sys
inp, out = sys.stdin.buffer, sys.stdout.buffer
n = json.loads(inp.readline())["frame_bytes"]
while len(inp.read(n)) == n:
    out.write(struct.pack("<i", 0))
    out.flush()
`

// TestAgentEntry: a command entry with params {protocol: gym} runs as a
// trained agent through package gym, and an agent that picks slot 0 gives
// fcfs's schedule under head committed with EASY, job for job.
func TestAgentEntry(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is absent")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "agent.py"), []byte(slotZeroAgent), 0o644); err != nil {
		t.Fatal(err)
	}
	w := &rigid.Workload{Name: "agent", Procs: 8}
	for i := range 60 {
		run := int64(100 + (i*37)%1800)
		w.Jobs = append(w.Jobs, rigid.Job{Number: int64(i + 1), User: int64(i % 3), SubmitSeconds: int64(60 * i),
			Procs: 1 + (i*5)%8, RunSeconds: run, RequestedSeconds: 2 * run})
	}
	entry := model.PolicyEntry{Name: "agent", Command: []string{"python3", "agent.py"}, Argv: []string{"python3", "agent.py"},
		Dir: dir, Params: map[string]string{"protocol": "gym", "backfill": "easy", "queue": "16"}}
	if !isAgent(entry) {
		t.Fatal("a command entry with protocol gym is not an agent")
	}
	got, err := agentSchedule(context.Background(), entry, w, rigid.EstimateRequested)
	if err != nil {
		t.Fatal(err)
	}
	want, err := backfill.Simulate(context.Background(), w, rigid.EstimateRequested,
		backfill.Policy{Order: backfill.OrderFCFS, Allocation: backfill.AllocEASY, Head: backfill.HeadCommitted})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.StartSeconds, want.StartSeconds) {
		t.Errorf("starts %v, want fcfs-easy's under head committed %v", got.StartSeconds, want.StartSeconds)
	}
	entry.Params["queue"] = "many"
	if _, err := agentConfig(entry); err == nil || !strings.Contains(err.Error(), `param queue="many": want a whole number`) {
		t.Errorf("queue many: %v", err)
	}
}
