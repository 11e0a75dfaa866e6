package child

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// helperEnv makes the test binary act as a simulator that starts a child
// and blocks, so that a test can kill -9 it.
const helperEnv = "SWEEP_CHILD_TEST_PARENT"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "1" {
		runHelperParent()
		return
	}
	os.Exit(m.Run())
}

// runHelperParent starts a child that would sleep for long, prints its
// pid and waits to be killed.
func runHelperParent() {
	p, err := Start(context.Background(), []string{"sleep", "1000"}, Options{})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	fmt.Println(p.Pid())
	select {}
}

// gone reports whether pid no longer runs: absent from /proc, or a zombie
// left for init to reap.
func gone(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] == 'Z'
}

func waitGone(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if gone(pid) {
			return
		}
	}
	t.Fatalf("process %d still runs", pid)
}

// askJSON writes one line and decodes the one-line JSON answer, the shape
// of issue 21's pipe protocol.
func askJSON(p *Process, out *bufio.Reader) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		if _, err := io.WriteString(p.Stdin(), `{"now":12.5}`+"\n"); err != nil {
			return fmt.Errorf("writing the request: %w", err)
		}
		line, err := out.ReadBytes('\n')
		if err != nil {
			return fmt.Errorf("reading the answer: %w", err)
		}
		var answer struct{ Now float64 }
		if err := json.Unmarshal(line, &answer); err != nil {
			return fmt.Errorf("answer %q: %w", strings.TrimSpace(string(line)), err)
		}
		if answer.Now != 12.5 {
			return fmt.Errorf("answer now %g: want the request's 12.5", answer.Now)
		}
		return nil
	}
}

var decision = Decision{Number: 7, What: "JOB_SUBMITTED w0!3", TimeSeconds: 12.5}

func TestExchangeEcho(t *testing.T) {
	p, err := Start(context.Background(), []string{"sh", "-c", `while read l; do echo "$l"; done`}, Options{Pipes: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	out := bufio.NewReader(p.Stdout())
	for n := int64(1); n <= 3; n++ {
		if err := p.Exchange(context.Background(), Decision{Number: n}, askJSON(p, out)); err != nil {
			t.Fatal(err)
		}
	}
}

func TestFaults(t *testing.T) {
	cases := []struct {
		name, script string
		want         []string // in the message
		stderr       []string
		isTimeout    bool
	}{
		{"exits", `read l; echo "no more" >&2; exit 3`, []string{"exited with status 3"}, []string{"no more"}, false},
		{"crashes", `read l; echo "about to crash" >&2; kill -SEGV $$`, []string{"killed by signal segmentation fault"}, []string{"about to crash"}, false},
		{"hangs", `read l; echo "thinking" >&2; exec sleep 100`, []string{"no answer within the decision deadline (300ms)"}, []string{"thinking"}, true},
		{"garbage", `read l; echo "line 1" >&2; echo "line 2" >&2; echo 'NaN, surely'; exec sleep 100`, []string{`answer "NaN, surely": invalid character 'N'`}, []string{"line 1", "line 2"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := Start(context.Background(), []string{"sh", "-c", c.script}, Options{Pipes: true, DecisionTimeout: 300 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			err = p.Exchange(context.Background(), decision, askJSON(p, bufio.NewReader(p.Stdout())))
			var f *Fault
			if !errors.As(err, &f) {
				t.Fatalf("got %v, want a *Fault", err)
			}
			msg := f.Error()
			for _, w := range append(c.want, "decision 7 (JOB_SUBMITTED w0!3) at 12.5 s") {
				if !strings.Contains(msg, w) {
					t.Errorf("fault %q does not say %q", msg, w)
				}
			}
			if got := strings.Join(f.Stderr, "|"); got != strings.Join(c.stderr, "|") {
				t.Errorf("stderr tail %q, want %q", got, strings.Join(c.stderr, "|"))
			}
			if errors.Is(err, ErrTimeout) != c.isTimeout {
				t.Errorf("errors.Is(ErrTimeout) = %v, want %v", !c.isTimeout, c.isTimeout)
			}
			pid := p.Pid()
			p.Close()
			waitGone(t, pid)
		})
	}
}

func TestStderrTailKeepsLastLines(t *testing.T) {
	p, err := Start(context.Background(), []string{"sh", "-c", `for i in 1 2 3 4 5 6; do echo "line $i" >&2; done; exit 1`}, Options{StderrLines: 4})
	if err != nil {
		t.Fatal(err)
	}
	<-p.Exited()
	f := p.Fault(decision, nil)
	if got, want := strings.Join(f.Stderr, "|"), "line 3|line 4|line 5|line 6"; got != want {
		t.Errorf("tail %q, want %q", got, want)
	}
	if !strings.Contains(f.Error(), "exited with status 1") {
		t.Errorf("fault %q does not give the exit status", f)
	}
}

// Close reaches the child's own children through the process group.
func TestCloseKillsTheGroup(t *testing.T) {
	p, err := Start(context.Background(), []string{"sh", "-c", `sleep 100 & echo $!; wait`}, Options{Pipes: true})
	if err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(p.Stdout()).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	grandchild, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatal(err)
	}
	if gone(grandchild) {
		t.Fatalf("grandchild %d is not running before Close", grandchild)
	}
	p.Close()
	waitGone(t, p.Pid())
	waitGone(t, grandchild)
}

func TestContextCancelKills(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	p, err := Start(ctx, []string{"sleep", "100"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	cancel()
	select {
	case <-p.Exited():
	case <-time.After(5 * time.Second):
		t.Fatal("the child outlived the cancelled context")
	}
}

// A kill -9 of the simulator runs no cleanup; the parent-death signal
// still ends its child.
func TestNoChildOutlivesAKilledParent(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	helper := exec.Command(self, "-test.run=^$")
	helper.Env = append(os.Environ(), helperEnv+"=1")
	out, err := helper.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	defer helper.Process.Kill()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	child, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("helper said %q: %v", line, err)
	}
	if gone(child) {
		t.Fatalf("child %d is not running before the kill", child)
	}
	if err := helper.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	helper.Wait()
	waitGone(t, child)
}
