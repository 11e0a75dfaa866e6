package swf

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // DateWindow must not depend on the host's zoneinfo
)

// Header holds the header comments of an SWF log: the keys a simulation
// needs, typed, and every "; Key: value" line in Fields. Numeric keys
// that are absent or unreadable are -1, as in SWF.
type Header struct {
	Version        string
	MaxProcs       int64
	MaxNodes       int64
	MaxJobs        int64
	MaxRecords     int64
	UnixStartTime  int64  // Unix seconds (UTC) of log second 0
	TimeZoneString string // IANA zone of the installation, e.g. Europe/Paris
	// TimeZoneOffsetSeconds is the deprecated TimeZone key: a fixed offset
	// east of UTC, meaningful only when HasTimeZoneOffset.
	TimeZoneOffsetSeconds int64
	HasTimeZoneOffset     bool
	// Fields maps each key to its values in file order; keys such as Note
	// and Queue repeat.
	Fields map[string][]string
}

// NewHeader returns a header that knows nothing: every numeric key -1
// (unknown, as in SWF), no fields.
func NewHeader() Header {
	return Header{MaxProcs: -1, MaxNodes: -1, MaxJobs: -1, MaxRecords: -1, UnixStartTime: -1, Fields: map[string][]string{}}
}

// parseHeaderComment reads one comment line (without its ';'). It returns
// the key whose value could not be read as a number, if any.
func (h *Header) parseHeaderComment(text string) (badKey, badValue string) {
	key, value, ok := splitHeaderKey(text)
	if !ok {
		return "", ""
	}
	h.Fields[key] = append(h.Fields[key], value)
	var target *int64
	switch key {
	case "Version":
		h.Version = value
	case "TimeZoneString":
		h.TimeZoneString = value
	case "MaxProcs":
		target = &h.MaxProcs
	case "MaxNodes":
		target = &h.MaxNodes
	case "MaxJobs":
		target = &h.MaxJobs
	case "MaxRecords":
		target = &h.MaxRecords
	case "UnixStartTime":
		target = &h.UnixStartTime
	case "TimeZone":
		target = &h.TimeZoneOffsetSeconds
	}
	if target == nil {
		return "", ""
	}
	// Values carry trailing remarks ("70  (dual)", "3600 # DEPRECATED").
	words := strings.Fields(value)
	if len(words) == 0 {
		return key, value
	}
	n, err := strconv.ParseInt(words[0], 10, 64)
	if err != nil {
		return key, value
	}
	*target = n
	if key == "TimeZone" {
		h.HasTimeZoneOffset = true
	}
	return "", ""
}

// splitHeaderKey splits "Key: value". A key is a letter followed by
// letters, digits or '_', and the colon must be followed by a space or
// the end, so that continuation lines such as "http://..." are not keys.
func splitHeaderKey(text string) (key, value string, ok bool) {
	text = strings.TrimSpace(text)
	key, value, found := strings.Cut(text, ":")
	if !found || key == "" || (value != "" && value[0] != ' ' && value[0] != '\t') {
		return "", "", false
	}
	for i, c := range key {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || c != '_' && (c < '0' || c > '9')) {
			return "", "", false
		}
	}
	return key, strings.TrimSpace(value), true
}

// Location returns the log's time zone: TimeZoneString if present, else
// the fixed TimeZone offset.
func (h Header) Location() (*time.Location, error) {
	if h.TimeZoneString != "" {
		loc, err := time.LoadLocation(h.TimeZoneString)
		if err != nil {
			return nil, fmt.Errorf("header TimeZoneString %q: %w", h.TimeZoneString, err)
		}
		return loc, nil
	}
	if h.HasTimeZoneOffset {
		return time.FixedZone(fmt.Sprintf("UTC%+d", h.TimeZoneOffsetSeconds/3600), int(h.TimeZoneOffsetSeconds)), nil
	}
	return nil, errors.New("header has neither TimeZoneString nor TimeZone")
}

// Time returns the instant of a log second, in the log's time zone when
// the header names one and in UTC otherwise.
func (h Header) Time(logSeconds int64) (time.Time, error) {
	if h.UnixStartTime < 0 {
		return time.Time{}, errors.New("header has no UnixStartTime")
	}
	t := time.Unix(h.UnixStartTime+logSeconds, 0).UTC()
	if h.TimeZoneString == "" && !h.HasTimeZoneOffset {
		return t, nil
	}
	loc, err := h.Location()
	if err != nil {
		return time.Time{}, err
	}
	return t.In(loc), nil
}

// LogSeconds returns the log second of instant t (rounded down to the
// second).
func (h Header) LogSeconds(t time.Time) (int64, error) {
	if h.UnixStartTime < 0 {
		return 0, errors.New("header has no UnixStartTime")
	}
	return t.Unix() - h.UnixStartTime, nil
}

// maxJobsHint bounds jobsHint, so that a header claiming more jobs than
// it has costs no more than about 200 MB of Jobs; larger logs grow past it.
const maxJobsHint = 1 << 20

// jobsHint is how many jobs the header says the log holds (MaxRecords,
// else MaxJobs), at most maxJobsHint, or 0 when it does not say. Reading
// SDSC Blue's 243,306 jobs into a slice of that capacity, instead of one
// grown by doubling, allocates a third as much.
func (h Header) jobsHint() int {
	for _, n := range []int64{h.MaxRecords, h.MaxJobs} {
		if n > 0 {
			return int(min(n, maxJobsHint))
		}
	}
	return 0
}

// MachineProcs returns the machine's size as the header gives it:
// MaxProcs, else MaxNodes (the archive's logs of node-allocating machines
// give only nodes, and their jobs count nodes), else an error saying so.
func (h Header) MachineProcs() (int64, error) {
	switch {
	case h.MaxProcs > 0:
		return h.MaxProcs, nil
	case h.MaxNodes > 0:
		return h.MaxNodes, nil
	}
	return 0, errors.New("the header gives neither MaxProcs nor MaxNodes, so the machine's size is unknown")
}
