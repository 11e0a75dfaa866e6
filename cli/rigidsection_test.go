package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRigidSectionKeys: sweep plan takes the rigid model's settings under
// rigid: or under its old name fairshare:, refuses a manifest giving both
// (exit 2, naming both keys and their lines), and sweep policies names
// the section with its alias.
func TestRigidSectionKeys(t *testing.T) {
	trace, err := filepath.Abs("../sweep/testdata/norequest.swf.txt")
	if err != nil {
		t.Fatal(err)
	}
	head := "experiment: x\nseed: 1\nplatform: single:4\nworkloads:\n  - {trace: " + trace + ", months: {from: 1970-01, to: 1970-01}, estimates: [T]}\npolicies: [relshare]\n"
	for _, tt := range []struct {
		name, sections string
		code           int
		want           string
	}{
		{"rigid", "rigid: {window: sliding}\n", 0, "cells     1 in the manifest"},
		{"fairshare", "fairshare: {window: sliding}\n", 0, "cells     1 in the manifest"},
		{"both", "rigid: {window: sliding}\nfairshare: {window: sliding}\n", 2,
			"line 7: rigid and line 8: fairshare: the rigid model's settings twice (fairshare: is another name of rigid:); give one of them"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "m.yaml")
			if err := os.WriteFile(path, []byte(head+tt.sections), 0o644); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), []string{"plan", path, "--out", filepath.Join(dir, "results")}, &stdout, &stderr)
			if code != tt.code || !strings.Contains(stdout.String()+stderr.String(), tt.want) {
				t.Errorf("sweep plan: exit %d, stdout %q, stderr %q; want exit %d and %q", code, stdout.String(), stderr.String(), tt.code, tt.want)
			}
		})
	}
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"policies"}, &stdout, &stderr); code != 0 ||
		!strings.Contains(stdout.String(), "settings:   the manifest's rigid section (fairshare accepted as an alias)") {
		t.Errorf("sweep policies: exit %d, %q; want the rigid section with its alias", code, stdout.String())
	}
}
