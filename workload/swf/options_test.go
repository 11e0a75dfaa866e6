package swf

import (
	"strings"
	"testing"
	"time"
)

// lpcHeader is the LPC-EGEE header lines that anchor time: log second 0
// is Wed Aug 04 12:32:12 CEST 2004 = 10:32:12 UTC.
const lpcHeader = "; UnixStartTime: 1091615532\n; TimeZone: 3600\n; TimeZoneString: Europe/Paris\n"

func TestWindowResolve(t *testing.T) {
	const lpcStart = 1091615532
	for _, tc := range []struct {
		name     string
		header   string
		window   Window
		from, to int64
	}{
		{"whole log", lpcHeader, Window{}, -1 << 63, 1<<63 - 1},
		{"log seconds", "", LogWindow(-5, 7), -5, 7},
		// The paper's period including Jan 24. 2004-12-06 00:00 CET (UTC+1)
		// is 2004-12-05 23:00 UTC: 2004-01-01 is day 34*365+8 = 12418 of
		// the epoch, Dec 5 is day 12418+335+4 = 12757, so Unix
		// 12757*86400+23*3600 = 1102287600, log second 1102287600-1091615532.
		// 2005-01-25 00:00 CET: day 12418+366+24 = 12808 minus one hour,
		// Unix 1106607600.
		{"paper dates", lpcHeader, DateWindow("2004-12-06", "2005-01-25"), 1102287600 - lpcStart, 1106607600 - lpcStart},
		// Summer time: 2004-08-05 00:00 CEST (UTC+2) is 11:27:48 after the
		// log start 12:32:12 CEST, i.e. 41268 s.
		{"daylight saving", lpcHeader, DateWindow("2004-08-05", "2004-08-06"), 41268, 41268 + 86400},
		// Only the deprecated offset: 1970-01-02 00:00 at UTC-8 is Unix
		// 86400+8*3600 = 115200.
		{"fixed offset", "; UnixStartTime: 0\n; TimeZone: -28800\n", DateWindow("1970-01-02", "1970-01-03"), 115200, 115200 + 86400},
		{"instants", lpcHeader, UnixWindow(time.Unix(lpcStart+100, 0), time.Unix(lpcStart+200, 0)), 100, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := NewReader(strings.NewReader(tc.header), Options{Window: tc.window})
			if err != nil {
				t.Fatal(err)
			}
			if from, to := r.WindowSeconds(); from != tc.from || to != tc.to {
				t.Errorf("window [%d, %d), want [%d, %d)", from, to, tc.from, tc.to)
			}
		})
	}
}

func TestWindowErrors(t *testing.T) {
	for _, tc := range []struct {
		name, header string
		window       Window
		wantText     string
	}{
		{"no time zone", "; UnixStartTime: 0\n", DateWindow("1970-01-02", "1970-01-03"), "neither TimeZoneString nor TimeZone"},
		{"no start time", "; TimeZoneString: Europe/Paris\n", DateWindow("1970-01-02", "1970-01-03"), "no UnixStartTime"},
		{"instants without start", "", UnixWindow(time.Unix(0, 0), time.Unix(1, 0)), "no UnixStartTime"},
		{"bad date", lpcHeader, DateWindow("2004-13-01", "2005-01-01"), `"2004-13-01": want YYYY-MM-DD`},
		{"unknown zone", "; UnixStartTime: 0\n; TimeZoneString: Mars/Olympus\n", DateWindow("1970-01-02", "1970-01-03"), "Mars/Olympus"},
		{"empty", "", LogWindow(5, 5), "[5, 5) log seconds is empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewReader(strings.NewReader(tc.header), Options{Window: tc.window})
			if err == nil || !strings.Contains(err.Error(), "input: option Window: ") || !strings.Contains(err.Error(), tc.wantText) {
				t.Errorf("error %v, want one naming the option and %q", err, tc.wantText)
			}
		})
	}
}

// The machine's size from the header: MaxProcs first (SDSC-SP2 gives
// both, 128 and 128; LPC-EGEE 140 processors on 70 dual nodes), else
// MaxNodes, else an error.
func TestMachineProcs(t *testing.T) {
	for _, tt := range []struct {
		procs, nodes, want int64
	}{{140, 70, 140}, {-1, 100, 100}, {-1, -1, 0}} {
		h := Header{MaxProcs: tt.procs, MaxNodes: tt.nodes}
		got, err := h.MachineProcs()
		if got != tt.want || (err == nil) != (tt.want > 0) {
			t.Errorf("MaxProcs %d MaxNodes %d: %d, %v; want %d", tt.procs, tt.nodes, got, err, tt.want)
		}
	}
}
