package gym

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"unsafe"
)

// The operations of a request frame (docs/gym.md, "Wire format").
const (
	OpReset uint32 = 1
	OpStep  uint32 = 2
	OpClose uint32 = 3
)

// Setup is the server's answer to the setup line: the shapes of every
// frame.
type Setup struct {
	Envs       int      `json:"num_envs"`
	Queue      int      `json:"queue"`
	Features   []string `json:"features"`
	Info       []string `json:"info"`
	Jobs       int      `json:"jobs"`
	FrameBytes int      `json:"frame_bytes"`
	// MaxEstimateSeconds is the sweep preset's estimate normalisation.
	MaxEstimateSeconds int64  `json:"max_estimate_seconds,omitempty"`
	Error              string `json:"error,omitempty"`
}

// frame is the response frame of every reset and step, laid out so that
// every array is aligned to its element:
//
//	u32 status (0), u32 0, f64 reward[N], f64 info[N x I], f32 obs[N x K x F],
//	u8 mask[N x K], u8 terminated[N], u8 truncated[N]
//
// all little-endian; status > 0 is instead the length of an error message
// that follows the 8 bytes, after which the server exits.
type frame struct {
	buf        []byte
	reward     []float64
	info       []float64
	obs        []float32
	mask       []uint8
	terminated []uint8
	k, f, i    int
}

func newFrame(n, k, f int) *frame {
	i := len(InfoFields)
	size := 8 + 8*n + 8*n*i + 4*n*k*f + n*k + 2*n
	words := make([]uint64, (size+7)/8) // 8-aligned, so every array is aligned
	fr := &frame{buf: unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), len(words)*8), k: k, f: f, i: i}
	off := 8
	fr.reward = unsafe.Slice((*float64)(unsafe.Pointer(&fr.buf[off])), n)
	off += 8 * n
	fr.info = unsafe.Slice((*float64)(unsafe.Pointer(&fr.buf[off])), n*i)
	off += 8 * n * i
	fr.obs = unsafe.Slice((*float32)(unsafe.Pointer(&fr.buf[off])), n*k*f)
	off += 4 * n * k * f
	fr.mask = fr.buf[off : off+n*k]
	off += n * k
	fr.terminated = fr.buf[off : off+n]
	fr.buf = fr.buf[:size]
	return fr
}

// Serve runs one session: the setup line (a Config as JSON) from in, its
// Setup as a JSON line to out, then request frames until OpClose or the
// end of in (the client died), each answered by a frame. Its arrays are
// written in the host's byte order, which must be little-endian (amd64,
// arm64).
func Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	if binary.NativeEndian.Uint16([]byte{1, 0}) != 1 {
		return errors.New("gym: the wire format is little-endian and this host is not")
	}
	r := bufio.NewReader(in)
	line, err := r.ReadBytes('\n')
	if err != nil {
		return fmt.Errorf("reading the gym setup line: %w", err)
	}
	c, err := ReadConfig(bytes.NewReader(line))
	var envs []*Env
	if err == nil {
		envs, err = NewEnvs(c)
	}
	if err != nil {
		b, _ := json.Marshal(Setup{Error: err.Error()})
		out.Write(append(b, '\n'))
		return err
	}
	k, f := c.Queue, envs[0].Features()
	fr := newFrame(len(envs), k, f)
	setup := Setup{Envs: len(envs), Queue: k, Features: c.Features(), Info: InfoFields, Jobs: c.Jobs, FrameBytes: len(fr.buf)}
	if c.Preset == PresetSweep {
		setup.MaxEstimateSeconds = c.MaxEstimateSeconds
	}
	b, _ := json.Marshal(setup)
	if _, err := out.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("writing the gym setup: %w", err)
	}
	s := &session{envs: envs, fr: fr, in: r, out: out, autoreset: c.Envs > 1 || c.AutoReset, workers: runtime.GOMAXPROCS(0)}
	s.errs = make([]error, s.workers)
	return s.run(ctx)
}

type session struct {
	envs      []*Env
	fr        *frame
	in        *bufio.Reader
	out       io.Writer
	autoreset bool
	req       []byte
	workers   int
	errs      []error // a step's workers' errors
}

func (s *session) run(ctx context.Context) error {
	var op [4]byte
	for {
		if _, err := io.ReadFull(s.in, op[:]); err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				return nil // the client is gone: nothing to answer
			}
			return fmt.Errorf("reading a gym request: %w", err)
		}
		var err error
		switch o := binary.LittleEndian.Uint32(op[:]); o {
		case OpReset:
			err = s.reset(ctx)
		case OpStep:
			err = s.step(ctx)
		case OpClose:
			return nil
		default:
			err = fmt.Errorf("gym request: operation %d: want %d (reset), %d (step) or %d (close)", o, OpReset, OpStep, OpClose)
		}
		if err != nil {
			return s.fail(err)
		}
		if _, err := s.out.Write(s.fr.buf); err != nil {
			return fmt.Errorf("writing a gym frame: %w", err)
		}
	}
}

// fail sends err to the client and returns it.
func (s *session) fail(err error) error {
	msg := []byte(err.Error())
	var head [8]byte
	binary.LittleEndian.PutUint32(head[:], uint32(len(msg)))
	s.out.Write(append(head[:], msg...))
	return err
}

func (s *session) read(n int) ([]byte, error) {
	if cap(s.req) < n {
		s.req = make([]byte, n)
	}
	s.req = s.req[:n]
	if _, err := io.ReadFull(s.in, s.req); err != nil {
		return nil, fmt.Errorf("reading a gym request: %w", err)
	}
	return s.req, nil
}

// reset reads N (i64 seed, i64 first) and resets every environment: a
// negative seed keeps the environment's stream, a negative first draws
// the window.
func (s *session) reset(ctx context.Context) error {
	b, err := s.read(16 * len(s.envs))
	if err != nil {
		return err
	}
	for i, e := range s.envs {
		seed := int64(binary.LittleEndian.Uint64(b[16*i:]))
		first := int64(binary.LittleEndian.Uint64(b[16*i+8:]))
		if err := e.Reset(ctx, seed, int(first)); err != nil {
			return fmt.Errorf("env %d: reset: %w", i, err)
		}
		s.fr.reward[i], s.fr.terminated[i] = 0, 0
		s.observe(i)
	}
	return nil
}

// step reads N i32 actions and steps every environment: in parallel
// over the cores when there are enough of them, each worker writing its
// environments' parts of the frame; the environments are independent, so
// the frame does not depend on the split.
func (s *session) step(ctx context.Context) error {
	b, err := s.read(4 * len(s.envs))
	if err != nil {
		return err
	}
	workers := min(s.workers, len(s.envs)/minEnvsPerWorker)
	if workers <= 1 {
		return s.stepRange(ctx, b, 0, len(s.envs))
	}
	errs := s.errs[:workers]
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := w*len(s.envs)/workers, (w+1)*len(s.envs)/workers
		wg.Go(func() { errs[w] = s.stepRange(ctx, b, lo, hi) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err // the first environment's in order
		}
	}
	return nil
}

// minEnvsPerWorker keeps a worker's share of a step above the cost of
// handing it over.
const minEnvsPerWorker = 8

// stepRange steps environments lo to hi-1 with their actions in b.
func (s *session) stepRange(ctx context.Context, b []byte, lo, hi int) error {
	for i := lo; i < hi; i++ {
		e := s.envs[i]
		action := int(int32(binary.LittleEndian.Uint32(b[4*i:])))
		r, done, err := e.Step(ctx, action)
		if err != nil {
			return fmt.Errorf("env %d: step: %w", i, err)
		}
		s.fr.reward[i], s.fr.terminated[i] = r, 0
		if done {
			s.fr.terminated[i] = 1
		}
		if done && s.autoreset {
			// Gymnasium's same-step autoreset: the ended episode's
			// measures in info, the next episode's first observation.
			e.Info(s.fr.info[i*s.fr.i : (i+1)*s.fr.i])
			if err := e.Reset(ctx, -1, -1); err != nil {
				return fmt.Errorf("env %d: autoreset: %w", i, err)
			}
			e.Observe(s.fr.obs[i*s.fr.k*s.fr.f:(i+1)*s.fr.k*s.fr.f], s.fr.mask[i*s.fr.k:(i+1)*s.fr.k])
			continue
		}
		s.observe(i)
	}
	return nil
}

func (s *session) observe(i int) {
	fr := s.fr
	s.envs[i].Observe(fr.obs[i*fr.k*fr.f:(i+1)*fr.k*fr.f], fr.mask[i*fr.k:(i+1)*fr.k])
	s.envs[i].Info(fr.info[i*fr.i : (i+1)*fr.i])
}
