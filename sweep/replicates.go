package sweep

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"strconv"
)

// ReplicateCount returns the number of replicates the manifest runs:
// its replicates field, 1 when the field is left out.
func (m *Manifest) ReplicateCount() int { return max(1, m.Replicates) }

// SetReplicates overrides the manifest's replicates (`sweep run
// --replicates K`).
func (m *Manifest) SetReplicates(k int) error {
	if k < 1 {
		return fmt.Errorf("replicates %d: want a whole number >= 1 (1 runs the experiment once, under its seed)", k)
	}
	m.Replicates = k
	return nil
}

// ReplicateSeed returns the root seed of replicate r of an experiment
// with root seed root. Replicate 0 is the experiment itself, under its own
// seed, so adding replicates to a manifest keeps every existing cell; the
// others hash the root seed with their number, so each replicate draws
// its own workload instances and policy streams, and a replicate's seed
// does not depend on how many replicates run.
func ReplicateSeed(root uint64, r int) uint64 {
	if r == 0 {
		return root
	}
	sum := sha256.Sum256([]byte("sweep-replicate\x00" + strconv.FormatUint(root, 10) + "\x00" + strconv.Itoa(r)))
	return binary.BigEndian.Uint64(sum[:8])
}
