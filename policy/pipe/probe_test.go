package pipe

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/platform"
	"github.com/sweep-sched/sweep/policy/child"
)

// The probes exchange the hello of an empty workload and stop the policy
// with end (docs/protocol.md): a policy that answers is accepted, one
// that cannot start or answer is refused with its stderr (issue 35). The
// script writes down the hello it got, so the test reads what was sent.
func TestProbes(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is absent")
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "p.py")
	os.WriteFile(script, []byte(`import json, sys
hello = sys.stdin.readline()
open(sys.argv[1], "w").write(hello)
print(json.dumps({"type": "hello", "protocol": 1}), flush=True)
assert json.loads(sys.stdin.readline())["type"] == "end"
`), 0o644)
	seen := filepath.Join(dir, "hello.json")
	opts := Options{Command: []string{"python3", script, seen}, Name: "mine"}
	if err := ProbeRigid(context.Background(), opts, 100, "R"); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(seen)
	want := `{"type":"hello","protocol":1,"model":"rigid","policy":"mine","params":{},"platform":{"procs":100},"workload":{"name":"probe","jobs":0,"estimate":"R"}}` + "\n"
	if string(got) != want {
		t.Errorf("rigid hello %s; want %s", got, want)
	}
	p, err := platform.Parse("single:8")
	if err != nil {
		t.Fatal(err)
	}
	if err := ProbeDAG(context.Background(), opts, p); err != nil {
		t.Fatal(err)
	}
	got, _ = os.ReadFile(seen)
	if !strings.Contains(string(got), `"model":"dag"`) || !strings.Contains(string(got), `"workload":{"jobs":0,"tasks":0}`) {
		t.Errorf("dag hello %s; want the dag model's with an empty workload", got)
	}

	broken := Options{Command: []string{"python3", "-c", "import sweep_policy_elsewhere"}, Name: "mine"}
	err = ProbeDAG(context.Background(), broken, p)
	var fault *child.Fault
	if !errors.As(err, &fault) || fault.Decision.What != "hello" || !strings.Contains(err.Error(), "No module named 'sweep_policy_elsewhere'") {
		t.Errorf("got %v; want the hello's fault with the ModuleNotFoundError", err)
	}
}
