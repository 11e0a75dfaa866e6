package fidelity

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"gopkg.in/yaml.v3"
)

// StudyOf returns the study of the results directory dir, under which its
// claims are explained: the experiment key of the manifest the run
// copied into dir (so that a reduced copy of a shipped manifest keeps its
// explanations), else the directory's name.
func StudyOf(dir string) (string, error) {
	path := filepath.Join(dir, "manifest.yaml")
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return filepath.Base(filepath.Clean(dir)), nil
	}
	if err != nil {
		return "", fmt.Errorf("reading the study of %s: %w", dir, err)
	}
	var m struct {
		Experiment string `yaml:"experiment"`
	}
	if err := yaml.Unmarshal(data, &m); err != nil {
		return "", fmt.Errorf("reading the study of %s: %s: %w", dir, path, err)
	}
	if m.Experiment == "" {
		return filepath.Base(filepath.Clean(dir)), nil
	}
	return m.Experiment, nil
}
