package pipe

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/sweep-sched/sweep/policy/child"
)

// endGrace is how long a policy may take to exit after the end message
// before it is killed.
const endGrace = 2 * time.Second

// Options configures a decision process.
type Options struct {
	// Command is the policy's argv, e.g. [python3, /abs/policies/sjf.py].
	Command []string
	// Name is the policy's name in the manifest, told in the hello.
	Name string
	// Params are the policy's params from the manifest, told in the
	// hello as strings.
	Params map[string]string
	// Dir is the process's working directory ("" inherits sweep's).
	Dir string
	// Env is its environment (nil inherits sweep's).
	Env []string
	// DecisionTimeout bounds each exchange (0: child.DefaultDecisionTimeout,
	// 30 s). A fault limit, never a budget: no schedule depends on it.
	DecisionTimeout time.Duration
}

// conn is a running decision process and its line exchange.
type conn struct {
	proc   *child.Process
	in     *bufio.Writer
	out    *bufio.Reader
	n      int64 // exchanges so far
	closed bool
}

// start runs the policy and sends the hello of protocol version; hello is
// the message's model-specific fields, already JSON, without braces.
func start(ctx context.Context, opts Options, model string, version int, hello []byte) (*conn, error) {
	p, err := child.Start(ctx, opts.Command, child.Options{Dir: opts.Dir, Env: opts.Env, DecisionTimeout: opts.DecisionTimeout, Pipes: true})
	if err != nil {
		return nil, err
	}
	c := &conn{proc: p, in: bufio.NewWriterSize(p.Stdin(), 64<<10), out: bufio.NewReaderSize(p.Stdout(), 64<<10)}
	params := opts.Params
	if params == nil {
		params = map[string]string{}
	}
	pj, _ := json.Marshal(params) // maps marshal with sorted keys
	name, _ := json.Marshal(opts.Name)
	msg := fmt.Appendf(nil, `{"type":"hello","protocol":%d,"model":%q,"policy":%s,"params":%s,`, version, model, name, pj)
	msg = append(msg, hello...)
	msg = append(msg, '}')
	err = c.exchange(ctx, child.Decision{What: "hello"}, msg, func(line []byte) error { return decodeHello(line, version) })
	if err != nil {
		c.close()
		return nil, err
	}
	return c, nil
}

// exchange sends one message line and hands the reply line to read,
// under the decision deadline; any failure is a *child.Fault naming d.
func (c *conn) exchange(ctx context.Context, d child.Decision, msg []byte, read func(line []byte) error) error {
	c.n++
	d.Number = c.n
	return c.proc.Exchange(ctx, d, func(context.Context) error {
		c.in.Write(msg)
		c.in.WriteByte('\n')
		if err := c.in.Flush(); err != nil {
			return fmt.Errorf("sending the message: %w", err)
		}
		line, err := c.readLine()
		if err != nil {
			return err
		}
		return read(line)
	})
}

// readLine reads one reply line without its newline.
func (c *conn) readLine() ([]byte, error) {
	var long []byte
	for {
		chunk, err := c.out.ReadSlice('\n')
		if err == nil || errors.Is(err, bufio.ErrBufferFull) {
			if long == nil && err == nil {
				return trimEOL(chunk), nil
			}
			long = append(long, chunk...)
			if len(long) > maxLineBytes {
				return nil, fmt.Errorf("a reply line longer than %d bytes", maxLineBytes)
			}
			if err == nil {
				return trimEOL(long), nil
			}
			continue
		}
		if errors.Is(err, io.EOF) {
			if len(chunk)+len(long) > 0 {
				return nil, fmt.Errorf("the policy closed its stdout in the middle of a reply %s", excerpt(append(long, chunk...)))
			}
			return nil, errors.New("the policy closed its stdout without answering")
		}
		return nil, fmt.Errorf("reading the reply: %w", err)
	}
}

func trimEOL(b []byte) []byte {
	b = b[:len(b)-1]
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	return b
}

// fault makes err the policy's fault at decision d.
func (c *conn) fault(d child.Decision, err error) error {
	d.Number = c.n
	return c.proc.Fault(d, err)
}

// end tells the policy the simulation ended and lets it exit.
func (c *conn) end(nowTime int64) {
	if c.closed {
		return
	}
	fmt.Fprintf(c.in, `{"type":"end","now":%d}`+"\n", nowTime)
	c.in.Flush()
	c.proc.Stdin().Close()
	c.closed = true
	_ = c.proc.Wait(endGrace)
}

// close kills the policy's process group.
func (c *conn) close() {
	c.closed = true
	c.proc.Close()
}
