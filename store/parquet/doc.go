// Package parquet owns the on-disk results of a sweep: tables of typed rows
// (package store's schemas and values)
// written as a stream of immutable Parquet part files, and the reading back
// of those files for resume and analysis.
//
// A table lives in DIR/<table>/ as files named part-<tag>-<seq>.parquet.
// The tag names one writing process (see [NewTag]), so shard processes can
// write into the same directory concurrently; seq counts that writer's
// flushes. Every part is complete and closed before it appears: it is built
// under a hidden temporary name (.tmp-part-<tag>-<seq>, which does not match
// the glob *.parquet that readers and DuckDB use), synced, then linked into
// place without ever replacing an existing file. A killed process therefore
// loses only the rows since its last flush and may leave a temporary file,
// which [RemoveDeadTemps] deletes. A writing process holds a session
// ([Admit], [Admission.Join]) that tells which temporary files are whose
// and whether their writer still lives.
//
// Columns are int64, float64, strings, or lists of float64. Strings are
// stored as Arrow dictionary<int32, utf8> (the Arrow schema is embedded),
// so pandas and polars see categoricals and DuckDB sees VARCHAR; a string
// column may state its categories (Column.Categories), which then open
// every row group's dictionary in their order and are listed in the file
// metadata under CategoriesKey. Lists are the standard Parquet LIST of
// required doubles (list<double> in pyarrow and DuckDB). A missing value is
// a Parquet null, never a NaN sentinel, so SQL aggregates skip it.
//
// [CellWriter] writes the two tables of a sweep, cells and (optionally) jobs,
// and keeps the invariant the runner relies on: a cell row is on disk no
// earlier than its job rows. With a [UniqueKey], writers sharing a
// directory publish under a lock (DIR/.publish.lock) and never publish a
// cell another writer already settled, so two processes running the same
// shard leave no duplicate rows; a [WriterGroup] lets the writers of one
// process, which share their cells out, skip that check among themselves. [ListParts] and [ReadColumns] read tables back
// and report unreadable part files as problems instead of failing.
package parquet
