package analysis_test

import (
	"slices"
	"testing"

	"github.com/sweep-sched/sweep/analysis"
	"github.com/sweep-sched/sweep/resultstest"
)

// TestRecordedModels: the models are the union of the parts' lists, in
// name order; a part without the key (written before it existed) or no
// part at all leaves them to be probed.
func TestRecordedModels(t *testing.T) {
	cells := resultstest.SmallRun()
	models := func(list string) map[string]string { return map[string]string{analysis.ModelsKey: list} }
	tests := []struct {
		name   string
		parts  []map[string]string
		want   []string
		wantOK bool
	}{
		{"no part", nil, nil, false},
		{"one model", []map[string]string{models("grid")}, []string{"grid"}, true},
		{"union", []map[string]string{models("grid"), models("moldable, grid")}, []string{"grid", "moldable"}, true},
		{"a part without the key", []map[string]string{models("grid"), nil}, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for i, metadata := range tt.parts {
				resultstest.WriteCellsPart(t, dir, string(rune('a'+i)), metadata, cells[i:i+1])
			}
			got, ok, err := analysis.RecordedModels(dir)
			if err != nil || ok != tt.wantOK || !slices.Equal(got, tt.want) {
				t.Errorf("RecordedModels: %q, %v, %v; want %q, %v", got, ok, err, tt.want, tt.wantOK)
			}
		})
	}
}
