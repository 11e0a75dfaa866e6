// Package rigid generates synthetic rigid-job workloads: the Lublin and
// Feitelson model of parallel jobs (JPDC 2003, "The workload on parallel
// supercomputers: modeling the characteristics of rigid jobs"; the model
// the Parallel Workloads Archive distributes as m_lublin99.c), and the
// Tsafrir, Etsion and Feitelson model of user run-time estimates (JSSPP
// 2005, "Modeling user runtime estimates"), applied to a generated job list.
//
// Both are reimplementations of the authors' C code (the copies in the PyPI
// package parallelworkloads 0.1.3: m_lublin99.c and est_model.cc), checked
// against it distribution by distribution (docs/lublin.md), not copies of
// it: the random streams differ, the distributions agree.
//
// Units and conventions: times are integer seconds; second 0 of a
// generated workload is midnight (the hour start-hour when that parameter
// is set, recorded in the workload's UnixStartSeconds); the machine's size
// is the caller's (the platform), and the job-size parameters derived from
// it are documented on Params. Randomness is a PCG seeded by the caller's
// [2]uint64 (grid.InstanceSeed of the cell), never global state.
package rigid
