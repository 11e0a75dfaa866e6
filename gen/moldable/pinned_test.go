package moldable

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
)

// TestPinnedDraws pins the generated workloads: the SHA-256 of every
// weight and time of instances 0 and 1 of each preset with n = 60 (m =
// 200), and of variants (X once per task, m = 7), computed before the
// generators were made faster (issue 25). The seeded draws and the
// arithmetic on them must not change.
func TestPinnedDraws(t *testing.T) {
	tests := []struct {
		set  []string
		want string
	}{
		{[]string{"tasks=60"}, "d6d423f9ad356230"},
		{[]string{"tasks=60", "x-per=task", "processors=7"}, "45522574fabd506b"},
	}
	for _, tt := range tests {
		h := sha256.New()
		for _, name := range Presets() {
			p := params(t, strings.TrimPrefix(name, PresetPrefix), tt.set...)
			for instance := range 2 {
				w, err := Generate(p, 2004, instance)
				if err != nil {
					t.Fatal(err)
				}
				for _, task := range w.Tasks {
					fmt.Fprintf(h, "%v %v\n", task.Weight, task.Times)
				}
			}
		}
		if got := hex.EncodeToString(h.Sum(nil))[:16]; got != tt.want {
			t.Errorf("%v: digest %s, want %s", tt.set, got, tt.want)
		}
	}
}
