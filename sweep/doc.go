// Package sweep owns experiments: manifests (parsing, validation,
// canonical hashing), their expansion into cells with stable ids and
// seeds, the runner that simulates cells on every core and streams them to
// Parquet, resume of an interrupted run, and sharding across processes
// (Slurm job arrays).
package sweep
