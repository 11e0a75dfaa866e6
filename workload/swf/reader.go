package swf

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
)

// maxLineBytes bounds one line; SWF lines are under 200 bytes, so a longer
// one means the input is not SWF.
const maxLineBytes = 1 << 20

// Reader streams the jobs of one SWF log. It is not safe for concurrent
// use.
type Reader struct {
	opts                   Options
	header                 Header
	fromSeconds, toSeconds int64
	include, exclude       map[int64]bool

	lines       *bufio.Scanner
	gz          *gzip.Reader
	file        *os.File
	pending     []byte // the first job line, read while parsing the header
	pendingLine int
	maxSubmit   int64 // largest submit time returned so far
	err         error // sticky read error
	report      Report
}

// NewReader reads the header of an SWF log from r, gzip-compressed or
// plain, and returns a Reader positioned at the first job. Errors and
// issues name the source as "input".
func NewReader(r io.Reader, opts Options) (*Reader, error) {
	return NewNamedReader(r, "input", opts)
}

// Open opens the SWF log at path, gzip-compressed or plain. Close the
// Reader when done.
func Open(path string, opts Options) (*Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("opening SWF log: %w", err)
	}
	r, err := NewNamedReader(f, path, opts)
	if err != nil {
		f.Close()
		return nil, err
	}
	r.file = f
	return r, nil
}

// NewNamedReader is NewReader on a log that errors, issues and the report
// name source, such as the path it was read from.
func NewNamedReader(src io.Reader, source string, opts Options) (*Reader, error) {
	r := &Reader{opts: opts, header: NewHeader(), maxSubmit: math.MinInt64}
	r.report.Source = source
	buffered := bufio.NewReader(src)
	var text io.Reader = buffered
	magic, err := buffered.Peek(2)
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("%s: reading SWF log: %w", source, err)
	}
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		if r.gz, err = gzip.NewReader(buffered); err != nil {
			return nil, fmt.Errorf("%s: opening gzip stream: %w", source, err)
		}
		text = r.gz
	}
	r.lines = bufio.NewScanner(text)
	r.lines.Buffer(make([]byte, 0, 4096), maxLineBytes)
	if err := r.readHeader(); err != nil {
		return nil, err
	}
	if r.fromSeconds, r.toSeconds, err = opts.Window.Resolve(r.header); err != nil {
		return nil, fmt.Errorf("%s: option Window: %w", source, err)
	}
	if len(opts.IncludeUsers) > 0 {
		r.include = userSet(opts.IncludeUsers)
	}
	r.exclude = userSet(opts.ExcludeUsers)
	return r, nil
}

func userSet(users []int64) map[int64]bool {
	set := make(map[int64]bool, len(users))
	for _, u := range users {
		set[u] = true
	}
	return set
}

// ErrJSON is the error of a log that is a JSON document, such as a Batsim
// workload, read as SWF: callers that know the other formats say which
// to choose.
var ErrJSON = errors.New("a JSON document, not an SWF log")

// readHeader consumes the comment and blank lines before the first job and
// keeps that job's line for Next.
func (r *Reader) readHeader() error {
	for {
		line, ok := r.scan()
		if !ok {
			return r.readError()
		}
		switch lineKind(line) {
		case blankLine:
			r.report.BlankLines++
		case commentLine:
			r.report.CommentLines++
			text := string(bytes.TrimSpace(line)[1:])
			if key, value := r.header.parseHeaderComment(text); key != "" {
				r.report.record(r.report.Lines, ReasonHeaderValue, fmt.Sprintf("%s: %q", key, value))
			}
		default:
			if t := bytes.TrimSpace(line); len(t) > 0 && (t[0] == '{' || t[0] == '[') {
				return fmt.Errorf("%s:%d: %w", r.report.Source, r.report.Lines, ErrJSON)
			}
			r.pending = append([]byte(nil), line...)
			r.pendingLine = r.report.Lines
			return nil
		}
	}
}

func (r *Reader) scan() ([]byte, bool) {
	if !r.lines.Scan() {
		return nil, false
	}
	r.report.Lines++
	return r.lines.Bytes(), true
}

// readError returns nil at a clean end of input and the wrapped cause
// otherwise.
func (r *Reader) readError() error {
	err := r.lines.Err()
	switch {
	case err == nil:
		return nil
	case errors.Is(err, bufio.ErrTooLong):
		return fmt.Errorf("%s:%d: line longer than %d bytes: not an SWF log", r.report.Source, r.report.Lines+1, maxLineBytes)
	default:
		return fmt.Errorf("%s: reading after line %d: %w", r.report.Source, r.report.Lines, err)
	}
}

// Header returns the log's header.
func (r *Reader) Header() Header { return r.header }

// WindowSeconds returns the resolved submit-time window [from, to) in log
// seconds.
func (r *Reader) WindowSeconds() (fromSeconds, toSeconds int64) {
	return r.fromSeconds, r.toSeconds
}

// Report returns the accounting of the lines read so far.
func (r *Reader) Report() Report {
	rep := r.report
	rep.issues = slices.Clone(rep.issues)
	return rep
}

// Next returns the next kept job in file order, or io.EOF after the last.
// In strict mode a malformed line yields an Issue as the error; reading
// may continue after it.
func (r *Reader) Next() (Job, error) {
	if r.err != nil {
		return Job{}, r.err
	}
	for {
		var line []byte
		var lineNo int
		if r.pending != nil {
			line, lineNo = r.pending, r.pendingLine
			r.pending = nil
		} else {
			var ok bool
			if line, ok = r.scan(); !ok {
				if r.err = r.readError(); r.err == nil {
					r.err = io.EOF
				}
				return Job{}, r.err
			}
			lineNo = r.report.Lines
		}
		switch lineKind(line) {
		case blankLine:
			r.report.BlankLines++
			continue
		case commentLine:
			r.report.CommentLines++
			continue
		}
		job, reason, detail := parseJobLine(line)
		if detail != "" {
			r.report.record(lineNo, reason, detail)
			if r.opts.Strict {
				return Job{}, Issue{Source: r.report.Source, Line: lineNo, Reason: reason, Detail: detail}
			}
			continue
		}
		job.Line = lineNo
		if r.keep(&job) {
			r.report.Jobs++
			return job, nil
		}
	}
}

// ReadAll returns the remaining jobs sorted stably by submit time, so jobs
// submitted in the same second stay in file order. In strict mode it stops
// at the first malformed line.
func (r *Reader) ReadAll() ([]Job, error) {
	jobs := make([]Job, 0, r.header.jobsHint())
	for {
		job, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return jobs, err
		}
		jobs = append(jobs, job)
	}
	if r.report.Count(ReasonSubmitDecreasing) > 0 {
		slices.SortStableFunc(jobs, func(a, b Job) int {
			return cmp.Compare(a.SubmitSeconds, b.SubmitSeconds)
		})
	}
	return jobs, nil
}

// Close releases the gzip stream and, for Open, the file.
func (r *Reader) Close() error {
	var gzErr, fileErr error
	if r.gz != nil {
		gzErr = r.gz.Close()
	}
	if r.file != nil {
		fileErr = r.file.Close()
	}
	return errors.Join(gzErr, fileErr)
}

// keep applies the selection and repair rules in the order of the package
// comment; every drop comes before any repair or note, so a dropped job
// leaves no note behind.
func (r *Reader) keep(j *Job) bool {
	rep := &r.report
	drop := func(reason Reason, detail string) bool {
		rep.record(j.Line, reason, detail)
		return false
	}
	switch {
	case j.SubmitSeconds == -1:
		return drop(ReasonSubmitUnknown, "")
	case r.include != nil && !r.include[j.User] || r.exclude[j.User]:
		return drop(ReasonUserFiltered, "user "+strconv.FormatInt(j.User, 10))
	case j.SubmitSeconds < r.fromSeconds || j.SubmitSeconds >= r.toSeconds:
		return drop(ReasonOutsideWindow, "")
	case j.Status == StatusCancelled && j.RunSeconds <= 0:
		return drop(ReasonCancelledNoRun, "")
	case r.opts.DropCancelled && j.Status == StatusCancelled:
		return drop(ReasonCancelled, "")
	case r.opts.DropFailed && j.Status == StatusFailed:
		return drop(ReasonFailed, "")
	case j.RunSeconds == -1:
		return drop(ReasonRunUnknown, "")
	case j.RunSeconds == 0 && !r.opts.KeepZeroRun:
		return drop(ReasonRunZero, "")
	case j.AllocatedProcs <= 0 && j.RequestedProcs <= 0:
		return drop(ReasonProcsUnknown, fmt.Sprintf("allocated %d, requested %d", j.AllocatedProcs, j.RequestedProcs))
	}
	note := func(reason Reason, detail string) {
		rep.record(j.Line, reason, detail)
		j.Notes.add(reason)
	}
	if j.RunSeconds == 0 {
		note(ReasonRunZeroKept, "")
	}
	if j.AllocatedProcs <= 0 {
		note(ReasonProcsFromRequest, fmt.Sprintf("allocated %d, requested %d", j.AllocatedProcs, j.RequestedProcs))
		j.AllocatedProcs = j.RequestedProcs
	}
	if j.RequestedSeconds > 0 && j.RunSeconds > j.RequestedSeconds {
		detail := fmt.Sprintf("run %d s, requested %d s", j.RunSeconds, j.RequestedSeconds)
		if r.opts.ClampRunToRequest {
			note(ReasonRunClamped, detail)
			j.LoggedRunSeconds, j.RunSeconds = j.RunSeconds, j.RequestedSeconds
		} else {
			note(ReasonRunOverRequest, detail)
		}
	}
	if j.RequestedSeconds == -1 {
		note(ReasonRequestUnknown, "")
	}
	if j.WaitSeconds == -1 {
		note(ReasonWaitUnknown, "")
	}
	if j.SubmitSeconds < r.maxSubmit {
		note(ReasonSubmitDecreasing, fmt.Sprintf("submit %d s after a job submitted at %d s", j.SubmitSeconds, r.maxSubmit))
	}
	r.maxSubmit = max(r.maxSubmit, j.SubmitSeconds)
	return true
}

type kindOfLine uint8

const (
	jobLine kindOfLine = iota
	blankLine
	commentLine
)

func lineKind(line []byte) kindOfLine {
	for _, c := range line {
		switch {
		case isSpace(c):
			continue
		case c == ';':
			return commentLine
		default:
			return jobLine
		}
	}
	return blankLine
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
}

// parseJobLine reads the 18 fields of a job line. A non-empty detail means
// the line is malformed for the returned reason.
func parseJobLine(line []byte) (job Job, reason Reason, detail string) {
	var fields [FieldCount][]byte
	n := 0
	for i := 0; i < len(line); {
		for i < len(line) && isSpace(line[i]) {
			i++
		}
		if i == len(line) {
			break
		}
		start := i
		for i < len(line) && !isSpace(line[i]) {
			i++
		}
		if n < FieldCount {
			fields[n] = line[start:i]
		}
		n++
	}
	if n != FieldCount {
		return Job{}, ReasonFieldCount, fmt.Sprintf("found %d fields", n)
	}
	targets := job.intFields()
	for i, f := range fields {
		var v float64
		if i == averageCPUField {
			var ok bool
			if job.AverageCPUSeconds, ok = parseDecimal(f); !ok {
				return Job{}, ReasonNotANumber, fieldDetail(i, f)
			}
			v = job.AverageCPUSeconds
		} else {
			iv, ok := parseInt(f)
			if !ok {
				return Job{}, ReasonNotANumber, fieldDetail(i, f)
			}
			*targets[i] = iv
			v = float64(iv)
		}
		if v < -1 {
			return Job{}, ReasonBelowMinusOne, fieldDetail(i, f)
		}
	}
	return job, 0, ""
}

func fieldDetail(i int, f []byte) string {
	return fmt.Sprintf("field %d (%s) %q", i+1, fieldNames[i], f)
}

// parseInt reads an optionally negative decimal integer that fits int64.
func parseInt(b []byte) (int64, bool) {
	negative := len(b) > 0 && b[0] == '-'
	if negative {
		b = b[1:]
	}
	if len(b) == 0 {
		return 0, false
	}
	var v uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		if v > (math.MaxInt64+1-uint64(c-'0'))/10 {
			return 0, false
		}
		v = v*10 + uint64(c-'0')
	}
	if negative {
		return -int64(v), true // v == MaxInt64+1 wraps to MinInt64, as wanted
	}
	if v > math.MaxInt64 {
		return 0, false
	}
	return int64(v), true
}

// parseDecimal reads a finite number written as -?digits[.digits] (either
// digit run may be empty, not both); exponents, hex and "NaN" are not SWF.
func parseDecimal(b []byte) (float64, bool) {
	digits := 0
	for i, c := range b {
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == '-' && i == 0:
		case c == '.' && bytes.IndexByte(b[:i], '.') < 0:
		default:
			return 0, false
		}
	}
	if digits == 0 {
		return 0, false
	}
	v, err := strconv.ParseFloat(string(b), 64)
	return v, err == nil
}
