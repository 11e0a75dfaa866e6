// Package analysistest writes hand-made results directories for the tests
// of the analysis and report packages: a small DAG run of two loads and
// three policies, a campaign run with its campaigns table, job rows.
package analysistest
