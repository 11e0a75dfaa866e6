package rigid

import (
	"strings"
	"testing"

	"github.com/sweep-sched/sweep/store"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

func TestSWFUser(t *testing.T) {
	names := parquet.ColumnData{Type: store.TypeString, Strings: []string{"u12", "u0", "12", "uX"}}
	ids := parquet.ColumnData{Type: store.TypeInt64, Int64s: []int64{12}}
	for _, tc := range []struct {
		column *parquet.ColumnData
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

// TestReadUsersMixedParts reads a users table whose first part has the
// integer user of older runs and whose second has u<id> strings, as a run
// resumed across that change leaves it.
func TestReadUsersMixedParts(t *testing.T) {
	dir := t.TempDir()
	write := func(tag string, user store.Type, row store.Row) {
		schema := table.UsersSchema()
		schema.Columns[1].Type = user
		w, err := parquet.NewPartWriter(dir, schema, parquet.WriterOptions{Tag: tag})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Append(row); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	f := store.Float64
	write("a", store.TypeInt64, store.Row{store.String("oct"), store.Int64(3), store.Int64(38), f(9288.5), f(-8433), f(1), f(0.5)})
	write("b", store.TypeString, store.Row{store.String("nov"), store.String("u6"), store.Int64(20), f(700), f(-277), f(1), f(0.5)})
	devs, demands, problems, err := readUsers(dir)
	if err != nil || len(problems) > 0 {
		t.Fatalf("readUsers: %v, problems %v", err, problems)
	}
	if devs["oct"][3] != -8433 || devs["nov"][6] != -277 || demands["oct"][3] != 9288.5 || demands["nov"][6] != 700 {
		t.Errorf("devs %v demands %v; want user 3 in oct (-8433, 9288.5) and user 6 in nov (-277, 700)", devs, demands)
	}
}
