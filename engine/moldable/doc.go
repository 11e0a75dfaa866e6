// Package moldable schedules independent moldable tasks off-line on m
// identical processors (seed 002, Dutot, Eyraud, Mounié and Trystram, SPAA
// 2004; the model as reconstructed in shared/design/moldable.md). It owns
// the makespan lower bound lambda* of the Mounié-Rapine-Trystram dual
// approximation test and its two-shelf allotment, one list-scheduling core
// with fixed allotments, the bi-criteria batch algorithm DEMT, and the
// baselines Gang, Sequential (LPT), and the list algorithms with the MRT
// allotment ordered by shelf (List-MRT), weighted LPT (List-wLPTF) and
// smallest area (List-SAF).
//
// Times are float64 seconds. Every tie is broken by task index, and the
// only randomness (DEMT's batch-order shuffles) comes from a caller-given
// seed, so a schedule is a pure function of the workload and the options.
// The interval-LP lower bound on the weighted completion time is in the
// subpackage lpbound.
//
// Choices where the design note is silent (each checked against its
// golden examples where they touch them):
//   - The MRT knapsack takes the free big tasks in index order.
//   - A DEMT batch without candidates is dropped: it takes no time and is
//     not a batch the shuffles permute.
//   - The shelf and compact variants put a batch's selected items on
//     consecutive processors from processor 0, in item order; compact
//     keeps those processors and starts each task when all of them are
//     idle (the golden shelf and compact schedules need exactly this).
//   - The shuffles draw rand.Perm from PCG(Seed, "demt").
//   - Gang's order compares w_i / p_i(m) as float64 quotients.
package moldable
