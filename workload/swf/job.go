package swf

import "strconv"

// Status is field 11 of SWF: how the job ended.
type Status int64

// The SWF 2.2 status codes.
const (
	StatusUnknown         Status = -1
	StatusFailed          Status = 0
	StatusCompleted       Status = 1
	StatusPartial         Status = 2 // a partial execution, to be continued
	StatusLastPartial     Status = 3 // the last partial execution, completed
	StatusLastPartialFail Status = 4 // the last partial execution, failed
	StatusCancelled       Status = 5
)

// Job is one SWF record: the 18 fields in file order, where -1 means
// unknown, plus where it came from and what the reader did to it.
type Job struct {
	Number            int64   // 1: job number
	SubmitSeconds     int64   // 2: submit time, seconds from the log start
	WaitSeconds       int64   // 3: wait time
	RunSeconds        int64   // 4: run time (wall clock)
	AllocatedProcs    int64   // 5: allocated processors
	AverageCPUSeconds float64 // 6: average CPU time per processor; fractional in some logs
	UsedMemoryKB      int64   // 7: used memory per processor
	RequestedProcs    int64   // 8: requested processors
	RequestedSeconds  int64   // 9: requested time, the user's estimate
	RequestedMemoryKB int64   // 10: requested memory per processor
	Status            Status  // 11: status
	User              int64   // 12: user id
	Group             int64   // 13: group id
	Executable        int64   // 14: executable (application) number
	Queue             int64   // 15: queue number
	Partition         int64   // 16: partition number
	PrecedingJob      int64   // 17: preceding job number
	ThinkTimeSeconds  int64   // 18: think time from the preceding job

	Line  int   // 1-based line in the source; 0 if the job was not read
	Notes Notes // the Repaired and Noted reasons that applied
	// LoggedRunSeconds is field 4 as the log recorded it when
	// Options.ClampRunToRequest clamped RunSeconds (ReasonRunClamped);
	// 0 otherwise.
	LoggedRunSeconds int64
}

// FieldCount is the number of fields in an SWF job line.
const FieldCount = 18

var fieldNames = [FieldCount]string{
	"job number", "submit time", "wait time", "run time", "allocated processors",
	"average CPU time", "used memory", "requested processors", "requested time",
	"requested memory", "status", "user id", "group id", "executable", "queue",
	"partition", "preceding job", "think time",
}

// LogFinishSeconds returns when the job finished in the log: submit + wait
// + run, with an unknown wait or run time taken as 0.
func (j Job) LogFinishSeconds() int64 {
	return j.SubmitSeconds + max(j.WaitSeconds, 0) + max(j.RunSeconds, 0)
}

// WorkProcSeconds returns run time x allocated processors, with unknowns
// taken as 0.
func (j Job) WorkProcSeconds() int64 {
	return max(j.RunSeconds, 0) * max(j.AllocatedProcs, 0)
}

// AppendSWF appends the job's 18 fields as one SWF line, without a
// newline. Reading that line back gives the same fields.
func (j Job) AppendSWF(b []byte) []byte {
	ints := j.intFields()
	for i := range FieldCount {
		if i > 0 {
			b = append(b, ' ')
		}
		if i == averageCPUField {
			b = strconv.AppendFloat(b, j.AverageCPUSeconds, 'f', -1, 64)
			continue
		}
		b = strconv.AppendInt(b, *ints[i], 10)
	}
	return b
}

// String returns the job as an SWF line.
func (j Job) String() string { return string(j.AppendSWF(nil)) }

// averageCPUField is the index of the only field that may be fractional.
const averageCPUField = 5

// intFields points at the integer fields by SWF position; the float field
// 6 is nil.
func (j *Job) intFields() [FieldCount]*int64 {
	return [FieldCount]*int64{
		&j.Number, &j.SubmitSeconds, &j.WaitSeconds, &j.RunSeconds, &j.AllocatedProcs,
		nil, &j.UsedMemoryKB, &j.RequestedProcs, &j.RequestedSeconds, &j.RequestedMemoryKB,
		(*int64)(&j.Status), &j.User, &j.Group, &j.Executable, &j.Queue,
		&j.Partition, &j.PrecedingJob, &j.ThinkTimeSeconds,
	}
}

// UserName is the name of SWF user id in workloads and result tables:
// "u" and the id, so that a trace's users are named alike in the
// campaign model's campaigns table and the rigid model's users table.
func UserName(id int64) string { return "u" + strconv.FormatInt(id, 10) }
