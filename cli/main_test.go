package cli

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// TestSecondInterruptExits: the first Ctrl-C only cancels the context (a
// run saves its finished cells); a second one ends the process at once,
// even when the work does not stop. The child is this test binary running
// TestInterruptChild, which ignores its cancelled context.
func TestSecondInterruptExits(t *testing.T) {
	if os.Getenv("SWEEP_INTERRUPT_CHILD") != "" {
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=TestInterruptChild")
	cmd.Env = append(os.Environ(), "SWEEP_INTERRUPT_CHILD=1")
	ready, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 1)
	if _, err := ready.Read(buf); err != nil {
		t.Fatalf("child never got ready: %v", err)
	}
	cmd.Process.Signal(os.Interrupt)
	if _, err := ready.Read(buf); err != nil {
		t.Fatalf("child did not see the first interrupt: %v", err)
	}
	cmd.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGINT {
			t.Errorf("child ended with %v; want death by SIGINT", err)
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("a second interrupt did not end the process")
	}
}

// TestInterruptChild stands for a command that is slow to stop: it reports
// readiness, reports the first interrupt, then goes on working.
func TestInterruptChild(t *testing.T) {
	if os.Getenv("SWEEP_INTERRUPT_CHILD") == "" {
		t.Skip("only run as TestSecondInterruptExits's child")
	}
	ctx, stop := InterruptContext()
	defer stop()
	os.Stdout.Write([]byte{'r'})
	<-ctx.Done()
	// AfterFunc runs stop in its own goroutine: wait until it has.
	time.Sleep(100 * time.Millisecond)
	os.Stdout.Write([]byte{'i'})
	time.Sleep(time.Minute)
}
