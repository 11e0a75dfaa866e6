package main

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sweep-sched/sweep/cli"
	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/model/builtin"
	"github.com/sweep-sched/sweep/model/grid"
	"github.com/sweep-sched/sweep/model/rigid"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

// Each Go policy of this module and its Python twin give the same
// measures in every cell of the example manifests: the Python client and
// the pipe protocol add nothing of their own.
func TestGoAndPythonTwinsAgree(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is absent: the Python twins cannot run")
	}
	python, _ := filepath.Abs("../../python")
	t.Setenv("PYTHONPATH", python)
	reg := builtin.Registry(rigid.Model{Own: []rigid.Policy{sjfEasy}}, grid.Model{Own: []grid.Order{smallFirst}})
	for _, c := range []struct {
		manifest, goPolicy, pyPolicy string
		md                           model.Model
	}{
		{"rigid.yaml", "sjf-easy", "py-sjf-easy", reg.Lookup("rigid")},
		{"dag.yaml", "small-first", "py-small-first", reg.Lookup("grid")},
	} {
		out := t.TempDir()
		var stdout, stderr bytes.Buffer
		if code := cli.Main(context.Background(), []string{"run", c.manifest, "--out", out, "-j", "2"}, &stdout, &stderr, reg); code != 0 {
			t.Fatalf("%s: exit %d: %s", c.manifest, code, stderr.String())
		}
		names := []string{table.Workload, table.Instance, table.Load, table.Policy}
		for _, m := range c.md.Measures() {
			names = append(names, m.Name)
		}
		cols, _, err := parquet.ReadColumns(out, table.Cells, names)
		if err != nil {
			t.Fatal(err)
		}
		rows := map[string]map[string]string{} // cell without policy -> policy -> measures
		for i := range cols.Rows {
			var key, values string
			for _, col := range cols.Columns {
				switch col.Name {
				case table.Policy:
				case table.Workload, table.Instance, table.Load:
					key += fmt.Sprint(col.Value(i)) + "/"
				default:
					values += fmt.Sprint(col.Value(i)) + " "
				}
			}
			if rows[key] == nil {
				rows[key] = map[string]string{}
			}
			rows[key][cols.Column(table.Policy).Strings[i]] = values
		}
		for key, byPolicy := range rows {
			if byPolicy[c.goPolicy] == "" || byPolicy[c.goPolicy] != byPolicy[c.pyPolicy] {
				t.Errorf("%s %s: %s gives %q, %s gives %q", c.manifest, key, c.goPolicy, byPolicy[c.goPolicy], c.pyPolicy, byPolicy[c.pyPolicy])
			}
		}
		t.Logf("%s: %d cells of %s equal to %s's", c.manifest, len(rows), c.pyPolicy, c.goPolicy)
	}
}
