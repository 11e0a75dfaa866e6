// Package sweep owns experiments: manifests (parsing, validation,
// canonical hashing), their expansion into cells with stable ids and
// seeds, the runner that simulates cells on every core and streams them to
// Parquet, resume of an interrupted run, sharding across processes (Slurm
// job arrays), and the status of a results directory while shards write.
package sweep
