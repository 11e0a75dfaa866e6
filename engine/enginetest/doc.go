// Package enginetest helps tests of sweep's simulators, as
// net/http/httptest helps tests of HTTP code: [CheckSchedule] fails a test
// whose schedule package verify refuses.
package enginetest
