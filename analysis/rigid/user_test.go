package rigid

import (
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/sweep/store"
)

func TestSWFUser(t *testing.T) {
	names := store.ColumnData{Type: store.TypeString, Strings: []string{"u12", "u0", "12", "uX"}}
	ids := store.ColumnData{Type: store.TypeInt64, Int64s: []int64{12}}
	for _, tc := range []struct {
		column *store.ColumnData
		row    int
		want   int64
		err    string
	}{
		{&names, 0, 12, ""},
		{&names, 1, 0, ""},
		{&ids, 0, 12, ""}, // results written before user was a string
		{&names, 2, 0, `user "12" in row 2: want u and an SWF user id`},
		{&names, 3, 0, `user "uX" in row 3`},
	} {
		got, err := swfUser(tc.column, tc.row)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("row %d: err %v, want %q", tc.row, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("row %d: %d, %v; want %d", tc.row, got, err, tc.want)
		}
	}
}
