package sweep

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/sweep-sched/sweep/model"
	"github.com/sweep-sched/sweep/store/parquet"
	"github.com/sweep-sched/sweep/store/table"
)

// copiedFrom starts the first line of a results directory's copy of its
// manifest, followed by the original's absolute path: the copy's relative
// paths (platform files, traces) are taken from the original's folder, so
// `sweep show`, `sweep status` and a resume from the copy find them.
const copiedFrom = "# sweep: copied from "

// copiedManifest splits a copy's marker line from the manifest text; origin
// is "" and data unchanged when there is none.
func copiedManifest(data []byte) (origin string, rest []byte) {
	line, after, ok := bytes.Cut(data, []byte("\n"))
	if !ok || !bytes.HasPrefix(line, []byte(copiedFrom)) {
		return "", data
	}
	return string(bytes.TrimPrefix(line, []byte(copiedFrom))), after
}

// CopiedFrom returns the path of the manifest that the copy data (a
// results directory's manifest.yaml) was made from; "" when data is not
// such a copy.
func CopiedFrom(data []byte) string {
	origin, _ := copiedManifest(data)
	return origin
}

// manifestTempPrefix starts the name of a manifest copy being written.
const manifestTempPrefix = ".manifest-"

// saveCopy keeps the manifest beside its results, for `sweep analyze`.
func (m *Manifest) saveCopy(out string) error {
	data, err := os.ReadFile(m.path)
	if err != nil {
		return fmt.Errorf("copying manifest: %w", err)
	}
	origin, data := copiedManifest(data)
	if origin == "" {
		if origin, err = filepath.Abs(m.path); err != nil {
			return fmt.Errorf("copying manifest: %w", err)
		}
	}
	data = append([]byte(copiedFrom+origin+"\n"), data...)
	tmp, err := writeTemp(out, manifestTempPrefix, data)
	if err != nil {
		return fmt.Errorf("copying manifest: %w", err)
	}
	defer os.Remove(tmp)
	return os.Rename(tmp, filepath.Join(out, "manifest.yaml"))
}

// writeTemp writes data whole into a new temporary file in dir whose name
// starts with prefix, and returns its path: renamed, it is a file written
// whole or not at all. Nothing is left when it fails.
func writeTemp(dir, prefix string, data []byte) (string, error) {
	tmp, err := parquet.CreateTemp(dir, prefix)
	if err != nil {
		return "", err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return "", err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return tmp.Name(), nil
}

// repair makes a results directory safe to append to, under its
// admission lock a: unreadable part files, and the parts of other tables
// published with them, are moved aside (their cells run again); so are
// child parts whose cells part was never written (a kill between the
// two); and the temporary files of writers that are not live (killed
// runs, as their sessions tell) are removed, whatever their age.
func repair(out string, plan *Plan, children []string, a *parquet.Admission) ([]string, error) {
	var warnings []string
	for _, p := range plan.Problems {
		aside, err := parquet.MoveAside(p.Path)
		if err != nil {
			return warnings, err
		}
		warnings = append(warnings, fmt.Sprintf("unreadable part file moved aside to %s (its cells will run again): %v", aside, p.Err))
	}
	live := a.LiveTags()
	// A flush publishes its child parts a few milliseconds before its
	// cells part: an orphan of a live run is such a flush, whose cells
	// part comes (or, should that run fail, the next run after it moves
	// the orphan aside).
	for _, child := range children {
		orphans, err := parquet.Orphans(out, child, table.Cells)
		if err != nil {
			return warnings, err
		}
		for _, path := range orphans {
			if live[parquet.TagOf(filepath.Base(path))] {
				continue
			}
			aside, err := parquet.MoveAside(path)
			if err != nil {
				return warnings, err
			}
			warnings = append(warnings, fmt.Sprintf("rows whose cells part is missing (a flush killed midway, or moved aside) moved aside to %s", aside))
		}
	}
	removed, err := removeDeadTemps(out, append([]string{table.Cells}, children...), live)
	if removed > 0 {
		warnings = append(warnings, fmt.Sprintf("%d temporary files of killed runs removed", removed))
	}
	return warnings, err
}

// removeDeadTemps removes the temporary files of the writers that are not
// live from the tables, and the manifest copies being written when a run
// was killed (only a run holding the admission lock writes one).
func removeDeadTemps(out string, tables []string, live map[string]bool) (int, error) {
	n := 0
	for _, name := range tables {
		removed, err := parquet.RemoveDeadTemps(out, name, live)
		n += len(removed)
		if err != nil {
			return n, err
		}
	}
	copies, err := filepath.Glob(filepath.Join(out, manifestTempPrefix+"*"))
	if err != nil {
		return n, err
	}
	for _, path := range copies {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return n, fmt.Errorf("removing a killed run's manifest copy: %w", err)
		}
		n++
	}
	return n, nil
}

// childTables names every child table any registered model may write,
// whatever this manifest records: a directory may hold parts of a run
// with other settings.
func (m *Manifest) childTables() []string {
	var out []string
	for _, md := range m.models.Models() {
		for _, s := range md.Tables(model.Record{Jobs: true, Campaigns: true, Users: true}) {
			if !slices.Contains(out, s.Table) {
				out = append(out, s.Table)
			}
		}
	}
	return out
}
