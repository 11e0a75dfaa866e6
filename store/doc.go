// Package store holds what a model needs to describe its results: table
// schemas (Schema, Column, Type), typed values and rows (Value, Row), and a
// cell's rows of a child table held a row or a column at a time (Child,
// Columns). It links no Arrow: the Parquet writer and reader that put these
// tables on disk are package store/parquet, which the runner and the
// analysis import and a model never does.
package store
