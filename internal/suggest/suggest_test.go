package suggest

import "testing"

// The cases are the typos of issue 35's "Messages that mislead" and their
// neighbours, with distances counted by hand.
func TestClosest(t *testing.T) {
	keys := []string{"label", "generator", "instances", "set", "trace", "months", "estimates", "format"}
	for _, tc := range []struct {
		got   string
		valid []string
		want  string
	}{
		{"month", keys, "months"},                      // one deletion
		{"fromat", keys, "format"},                     // one swap
		{"instnaces", keys, "instances"},               // one swap
		{"Label", keys, "label"},                       // case only
		{"batsm", []string{"swf", "batsim"}, "batsim"}, // one deletion
		{"job", []string{"jobs", "campaigns", "users"}, "jobs"},
		{"fcfs-esy", []string{"relshare", "tradeoff-fs", "fcfs-easy"}, "fcfs-easy"},
		{"platfrom", []string{"experiment", "platform", "platforms"}, "platform"},
		{"xyz", keys, ""},            // nothing within one edit of a 3-letter name
		{"window", keys, ""},         // no key near
		{"format", keys, ""},         // valid already: nothing to suggest
		{"swf", []string{"swf"}, ""}, // valid already
		{"pslrr", []string{"pslr", "lrtf"}, "pslr"},
	} {
		if got := Closest(tc.got, tc.valid); got != tc.want {
			t.Errorf("Closest(%q) = %q, want %q", tc.got, got, tc.want)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "", 3}, {"kitten", "sitting", 3}, {"ca", "ac", 1}, {"month", "months", 1},
	} {
		if got := distance(tc.a, tc.b); got != tc.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestDidYouMean(t *testing.T) {
	if got, want := DidYouMean("batsm", []string{"swf", "batsim"}), " (did you mean batsim?)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := DidYouMean("zzzzzz", []string{"swf", "batsim"}); got != "" {
		t.Errorf("got %q, want nothing", got)
	}
}
