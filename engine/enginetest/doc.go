// Package enginetest helps tests of sweep's simulators, as
// net/http/httptest helps tests of HTTP code: [CheckSchedule] fails a test
// whose schedule package verify refuses, and [RandomNodeJobs] draws jobs
// of every kind of node request.
package enginetest
