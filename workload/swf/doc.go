// Package swf reads and writes workload logs in the Standard Workload
// Format (SWF 2.2, Parallel Workloads Archive): the header, the jobs and,
// when reading, a report of every line dropped, filtered, repaired or
// noted. It is a format: it
// imports only the standard library, and what a model makes of the jobs
// lives with the model (the campaign model's MAX-rule campaigns in
// gen/campaign, the rigid model's trace months in model/rigid/rigidtrace).
//
// # Reading
//
// [NewReader] wraps any io.Reader (gzip is recognised by its magic bytes,
// anything else is read as plain text); [Open] does the same for a file.
// The header (the comment lines before the first job) is parsed when the
// reader is created; [Reader.Next] then streams jobs in file order, and
// [Reader.ReadAll] collects the rest sorted by submit time.
//
// Every line is accounted for in the [Report]: lines = jobs + dropped +
// filtered + comment lines + blank lines. Nothing is dropped or changed
// silently; each line that is not returned unchanged is counted under
// exactly one [Reason] per decision, and the first few line numbers of
// each reason are kept. The rules, checked in this order:
//
//   - malformed line (not 18 fields, a field that is not a decimal number,
//     or a value below -1, which SWF reserves for "unknown"): dropped, or
//     an error naming the line with [Options.Strict];
//   - submit time -1: dropped (the job cannot be placed in time);
//   - user not selected by [Options.IncludeUsers] / [Options.ExcludeUsers],
//     or submit time outside [Options.Window]: filtered;
//   - cancelled (status 5) with run time 0 or -1: dropped, the job never
//     ran (LPC-EGEE records these with 0 allocated processors);
//   - cancelled or failed jobs that did run: kept, unless
//     [Options.DropCancelled] / [Options.DropFailed];
//   - run time -1: dropped; run time 0: dropped unless
//     [Options.KeepZeroRun] (then kept and noted);
//   - allocated processors -1 or 0: repaired to the requested processors
//     when those are known, dropped otherwise;
//   - run time above the requested time: kept and noted, or clamped to the
//     requested time with [Options.ClampRunToRequest];
//   - requested time -1, wait time -1: kept and noted;
//   - submit time below an earlier kept job's: kept and noted; Next keeps
//     file order, ReadAll sorts stably by submit time.
//
// Each returned [Job] carries the reasons that touched it in [Job.Notes].
// Comment lines after the first job are counted but not added to the
// [Header].
//
// # Writing
//
// [Write] writes a header and jobs as a log any SWF reader takes: the
// header's keys in the order of the format's definition, then one line of
// 18 fields per job (-1 for unknown). Reading it back gives the same
// header keys and the same jobs. It writes workloads (a log or a model's
// jobs); a simulated schedule, whose wait times are the simulator's, is
// package export's.
//
// # Time
//
// Times in a job are seconds from the log's start; UnixStartTime in the
// header anchors them to absolute time. A [Window] selects jobs by submit
// time in a half-open interval [from, to), given in log seconds
// ([LogWindow]), as instants ([UnixWindow]), or as calendar dates
// ([DateWindow]). Calendar dates mean midnight in the log's own time zone:
// the header's TimeZoneString (an IANA name such as Europe/Paris, so
// daylight saving time is honoured), else its deprecated fixed TimeZone
// offset in seconds; a log with neither cannot take a DateWindow. The
// package embeds the IANA database (time/tzdata) so the answer does not
// depend on the host.
package swf
