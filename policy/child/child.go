// Package child supervises a decision process: an external command that a
// simulation consults at each decision point (a Batsim scheduler over
// ZeroMQ, or a policy speaking newline-delimited JSON over its stdin and
// stdout). It owns the child's life: the command runs in its own process
// group with the parent-death signal, so a kill -9 of the simulator takes
// the child with it; each exchange runs under a per-decision deadline; the
// child's last stderr lines are kept; and Close kills the whole group and
// reaps it. Every way a child can fail a simulation comes back as a *Fault
// naming the decision, the simulation time and those stderr lines.
package child

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// DefaultDecisionTimeout is the default per-decision deadline. It is a
// fault limit, there to fail a hung child, not a budget: a schedule never
// depends on it, so it is generous.
const DefaultDecisionTimeout = 30 * time.Second

// DefaultStderrLines is how many of the child's last stderr lines a fault
// quotes by default.
const DefaultStderrLines = 20

// maxLineBytes bounds one kept stderr line, so a child printing megabytes
// without a newline cannot grow the tail.
const maxLineBytes = 1000

// stderrDrain is how long a fault waits, after the child exited, for the
// last stderr lines still in the pipe.
const stderrDrain = 500 * time.Millisecond

// exitGrace is how long an exchange may go on after the child exited,
// for an answer it sent just before.
const exitGrace = 200 * time.Millisecond

// ErrTimeout is the cause of a fault when the child did not answer within
// the decision deadline.
var ErrTimeout = errors.New("no answer within the decision deadline")

// errExited is the cancellation cause when the child exits during an
// exchange; the fault then reports its exit status.
var errExited = errors.New("the decision process exited")

// Options tunes Start.
type Options struct {
	// Dir is the child's working directory; "" inherits the parent's.
	Dir string
	// Env is the child's environment; nil inherits the parent's.
	Env []string
	// DecisionTimeout bounds each Exchange; 0 means
	// DefaultDecisionTimeout.
	DecisionTimeout time.Duration
	// StderrLines is how many last stderr lines are kept; 0 means
	// DefaultStderrLines.
	StderrLines int
	// Pipes connects the child's stdin and stdout to Stdin and Stdout.
	// Without it they are /dev/null, for children that talk over a
	// socket and may print freely.
	Pipes bool
}

// Decision names one exchange with the child, for fault messages.
type Decision struct {
	// Number counts the exchanges from 1.
	Number int64
	// What says what the child was asked, e.g. "JOB_SUBMITTED w0!3".
	What string
	// TimeSeconds is the simulation time of the decision.
	TimeSeconds float64
}

func (d Decision) String() string {
	return fmt.Sprintf("decision %d (%s) at %s s", d.Number, d.What, formatSeconds(d.TimeSeconds))
}

func formatSeconds(s float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.9f", s), "0"), ".")
}

// Fault is the failure of a simulation caused by its decision process.
type Fault struct {
	Command  string // the command line, for the message
	Decision Decision
	Err      error    // what went wrong
	Stderr   []string // the child's last stderr lines, oldest first
}

func (f *Fault) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "decision process %s: %s: %v", f.Command, f.Decision, f.Err)
	if len(f.Stderr) == 0 {
		b.WriteString(" (its stderr is empty)")
		return b.String()
	}
	fmt.Fprintf(&b, "; its last %d stderr lines:", len(f.Stderr))
	for _, l := range f.Stderr {
		b.WriteString("\n\t")
		b.WriteString(l)
	}
	return b.String()
}

func (f *Fault) Unwrap() error { return f.Err }

// Process is a running decision process.
type Process struct {
	cmd     *exec.Cmd
	command string
	timeout time.Duration
	stdin   io.WriteCloser
	stdout  io.ReadCloser

	exited   chan struct{} // closed once the child is reaped
	exitCtx  context.Context
	waitErr  error         // cmd.Wait's error, set before exited closes
	stderrOK chan struct{} // closed at stderr EOF

	mu      sync.Mutex
	tail    []string // ring of the last stderr lines
	next    int
	full    bool
	killed  bool // we killed the group: the exit status is ours
	stopCtx func() bool
	closed  bool
}

// Start runs argv as a decision process. Cancelling ctx kills it.
func Start(ctx context.Context, argv []string, opts Options) (*Process, error) {
	if len(argv) == 0 {
		return nil, errors.New("starting a decision process: empty command")
	}
	timeout := opts.DecisionTimeout
	if timeout == 0 {
		timeout = DefaultDecisionTimeout
	}
	if timeout < 0 {
		return nil, fmt.Errorf("starting a decision process: decision timeout %v: want a positive duration (0 for %v)", timeout, DefaultDecisionTimeout)
	}
	lines := opts.StderrLines
	if lines == 0 {
		lines = DefaultStderrLines
	}
	if lines < 0 {
		return nil, fmt.Errorf("starting a decision process: stderr lines %d: want at least 1 (0 for %d)", lines, DefaultStderrLines)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = opts.Dir
	cmd.Env = opts.Env
	// Its own group, so that Close reaches whatever the child starts; the
	// parent-death signal, so that a kill -9 of the simulator, which runs
	// no cleanup, still ends the child.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	p := &Process{cmd: cmd, command: strings.Join(argv, " "), timeout: timeout,
		exited: make(chan struct{}), stderrOK: make(chan struct{}), tail: make([]string, lines)}
	var childEnds []*os.File // closed here once the child has them
	if opts.Pipes {
		// Blocking pipes, not exec's: a decision is a write and a read
		// that blocks until the answer, which then costs one system call
		// instead of a read, a park on the poller and a read again. A
		// read ends when the child's group is killed (Exchange's
		// deadline), as the child holds the only write end.
		inR, inW, err := blockingPipe()
		if err != nil {
			return nil, fmt.Errorf("starting %s: stdin pipe: %w", p.command, err)
		}
		outR, outW, err := blockingPipe()
		if err != nil {
			inR.Close()
			inW.Close()
			return nil, fmt.Errorf("starting %s: stdout pipe: %w", p.command, err)
		}
		cmd.Stdin, cmd.Stdout = inR, outW
		p.stdin, p.stdout = inW, outR
		childEnds = []*os.File{inR, outW}
	}
	// An *os.File, not a pipe exec copies from: Wait must not wait for a
	// grandchild that holds stderr open.
	stderrR, stderrW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("starting %s: stderr pipe: %w", p.command, err)
	}
	cmd.Stderr = stderrW
	err = cmd.Start()
	for _, f := range childEnds {
		f.Close()
	}
	if err != nil {
		stderrR.Close()
		stderrW.Close()
		if p.stdin != nil {
			p.stdin.Close()
			p.stdout.Close()
		}
		return nil, fmt.Errorf("starting %s: %w", p.command, err)
	}
	stderrW.Close()
	go p.readStderr(stderrR)
	exitCtx, exitCancel := context.WithCancel(context.Background())
	p.exitCtx = exitCtx
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
		exitCancel()
	}()
	p.stopCtx = context.AfterFunc(ctx, p.kill)
	return p, nil
}

// Pid returns the child's process id, which is also its process group id.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Stdin is the child's standard input (with Options.Pipes).
func (p *Process) Stdin() io.WriteCloser { return p.stdin }

// Stdout is the child's standard output (with Options.Pipes).
func (p *Process) Stdout() io.ReadCloser { return p.stdout }

// Exited is closed once the child has exited and been reaped.
func (p *Process) Exited() <-chan struct{} { return p.exited }

func (p *Process) readStderr(r *os.File) {
	defer close(p.stderrOK)
	defer r.Close()
	br := bufio.NewReader(r)
	var line []byte
	for {
		chunk, isPrefix, err := br.ReadLine()
		if len(line) < maxLineBytes {
			line = append(line, chunk[:min(len(chunk), maxLineBytes-len(line))]...)
		}
		if err != nil {
			if len(line) > 0 {
				p.keep(string(line))
			}
			return
		}
		if !isPrefix {
			p.keep(string(line))
			line = line[:0]
		}
	}
}

func (p *Process) keep(line string) {
	p.mu.Lock()
	p.tail[p.next] = line
	p.next++
	if p.next == len(p.tail) {
		p.next, p.full = 0, true
	}
	p.mu.Unlock()
}

// StderrTail returns the child's last stderr lines, oldest first.
func (p *Process) StderrTail() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.full {
		return append([]string(nil), p.tail[:p.next]...)
	}
	return append(append([]string(nil), p.tail[p.next:]...), p.tail[:p.next]...)
}

// kill sends SIGKILL to the child's whole process group.
func (p *Process) kill() {
	p.mu.Lock()
	p.killed = true
	p.mu.Unlock()
	// The group outlives its leader while a member lives, so this also
	// reaches grandchildren after the leader was reaped; ESRCH means
	// none is left.
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
}

// Exchange runs one exchange with the child under the decision deadline.
// exchange must return soon after its ctx is done: the child is killed
// then, which ends reads from its pipes, and a socket's user closes the
// socket (context.AfterFunc). A deadline passed, the child's exit, or any
// error exchange returns comes back as a *Fault for decision d; a
// cancellation of ctx comes back wrapped, not as a fault.
func (p *Process) Exchange(ctx context.Context, d Decision, exchange func(ctx context.Context) error) error {
	ectx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	timer := time.AfterFunc(p.timeout, func() {
		cancel(fmt.Errorf("%w (%v): it is hung or far slower than expected; raise the decision timeout if it is only slow", ErrTimeout, p.timeout))
	})
	// A child may answer, then exit: the answer is read first, and the
	// pipe or socket breaks by itself if none came.
	stopExit := context.AfterFunc(p.exitCtx, func() { time.AfterFunc(exitGrace, func() { cancel(errExited) }) })
	stopKill := context.AfterFunc(ectx, p.kill)
	err := exchange(ectx)
	timer.Stop()
	stopExit()
	if stopKill() && err == nil {
		return nil
	}
	if cerr := ctx.Err(); cerr != nil {
		return fmt.Errorf("%s: %w", d, cerr)
	}
	if cause := context.Cause(ectx); cause != nil {
		err = cause
	}
	return p.Fault(d, err)
}

// Fault builds the fault of decision d caused by err, quoting the child's
// last stderr lines. When the child has exited by itself, its exit status
// leads the cause: a broken pipe is only its consequence.
func (p *Process) Fault(d Decision, err error) *Fault {
	select {
	case <-p.exited:
	case <-time.After(stderrDrain):
	}
	select {
	case <-p.exited:
		select {
		case <-p.stderrOK:
		case <-time.After(stderrDrain):
		}
		if exitErr := p.ownExit(); exitErr != nil {
			if err == nil || errors.Is(err, errExited) {
				err = exitErr
			} else {
				err = fmt.Errorf("%w (the exchange failed with: %v)", exitErr, err)
			}
		}
	default:
	}
	return &Fault{Command: p.command, Decision: d, Err: err, Stderr: p.StderrTail()}
}

// ownExit describes how the reaped child ended, or returns nil when our
// SIGKILL ended it.
func (p *Process) ownExit() error {
	p.mu.Lock()
	killed := p.killed
	p.mu.Unlock()
	var ee *exec.ExitError
	if errors.As(p.waitErr, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			if killed && ws.Signal() == syscall.SIGKILL {
				return nil
			}
			return fmt.Errorf("%w: killed by signal %v", errExited, ws.Signal())
		}
		return fmt.Errorf("%w with status %d", errExited, ee.ExitCode())
	}
	if p.waitErr != nil {
		return fmt.Errorf("%w: %v", errExited, p.waitErr)
	}
	return fmt.Errorf("%w with status 0", errExited)
}

// Wait gives the child up to grace to exit by itself, as it should once
// told the simulation ended, then closes it like Close. It returns how
// the child ended when that was not a clean exit in time.
func (p *Process) Wait(grace time.Duration) error {
	select {
	case <-p.exited:
	case <-time.After(grace):
		p.Close()
		return fmt.Errorf("decision process %s: still running %v after the end: killed", p.command, grace)
	}
	p.Close()
	if err := p.ownExit(); err != nil && p.waitErr != nil {
		return fmt.Errorf("decision process %s: %w", p.command, err)
	}
	return nil
}

// Close kills the child's process group and reaps the child. It is safe
// to call more than once.
func (p *Process) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	p.mu.Unlock()
	p.stopCtx()
	p.kill()
	<-p.exited
	if p.stdin != nil {
		p.stdin.Close()
		p.stdout.Close()
	}
	return nil
}

// blockingPipe returns a pipe whose ends block in read and write rather
// than park on the runtime's poller (os.Pipe's).
func blockingPipe() (r, w *os.File, err error) {
	var fds [2]int
	if err := syscall.Pipe2(fds[:], syscall.O_CLOEXEC); err != nil {
		return nil, nil, err
	}
	return os.NewFile(uintptr(fds[0]), "|0"), os.NewFile(uintptr(fds[1]), "|1"), nil
}
