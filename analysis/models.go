package analysis

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

// ModelsKey is table.ModelsKey, the metadata key naming a run's models.
const ModelsKey = table.ModelsKey

// RecordedModels returns the models that the cells part files of the
// results directory dir name under ModelsKey, in name order, with ok set.
// When a readable part file lacks the key (it was written before the key
// existed) or there is no part file, ok is false: the caller has to tell
// the models from the columns instead.
func RecordedModels(dir string) (models []string, ok bool, err error) {
	parts, _, err := parquet.ListParts(dir, table.Cells)
	if err != nil {
		return nil, false, fmt.Errorf("reading the models of %s: %w", dir, err)
	}
	if len(parts) == 0 {
		return nil, false, nil
	}
	for _, part := range parts {
		list, has := part.Metadata[ModelsKey]
		if !has {
			return nil, false, nil
		}
		for _, name := range strings.Split(list, ",") {
			if name = strings.TrimSpace(name); name != "" && !slices.Contains(models, name) {
				models = append(models, name)
			}
		}
	}
	slices.Sort(models)
	return models, true, nil
}
