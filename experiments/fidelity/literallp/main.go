// Command literallp measures how much of seed 002's minsum ratios is the lower bound
// (docs/fidelity.md#seed-002-dutot2004). For each instance of the shipped study it
// solves the interval LP twice with package lpbound: over the boundaries sweep uses
// (p_min, the batch lengths tau_0..tau_K and 2 tau_K; design/moldable.md's "safe"
// version) and over the paper's literal ones (the batch lengths only, so that a task
// is charged at least tau_0 however early it can end). It prints one line per
// instance: workload, instance, the safe and the literal bound. With -golden it
// first checks the literal bound against the golden file's LP_paper_literal_float.
//
//	go run ./experiments/fidelity/literallp -golden engine/moldable/testdata/moldable-examples.json \
//	    -instances 10 > /tmp/fid/literal-lp.tsv
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math"
	"math/big"
	"os"
	"strconv"

	emoldable "github.com/sweep-sched/sweep/engine/moldable"
	"github.com/sweep-sched/sweep/engine/moldable/lpbound"
	gmoldable "github.com/sweep-sched/sweep/gen/moldable"
	workload "github.com/sweep-sched/sweep/workload/moldable"
)

func main() {
	golden := flag.String("golden", "", "golden examples file to check the literal bound against")
	seed := flag.Uint64("seed", 2004, "root seed (experiments/dutot2004.yaml)")
	instances := flag.Int("instances", 40, "instances per workload and n")
	flag.Parse()
	if *golden != "" {
		if err := checkGolden(*golden); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println("workload\tinstance\tsafe\tliteral")
	for _, kind := range []string{"uniform-weak", "uniform-high", "mixed", "cirne-berman"} {
		preset, err := gmoldable.Lookup("dutot2004/" + kind)
		if err != nil {
			log.Fatal(err)
		}
		for n := 25; n <= 400; n += 25 {
			params := preset.Defaults()
			if err := params.Set("tasks", strconv.Itoa(n)); err != nil {
				log.Fatal(err)
			}
			for i := range *instances {
				w, err := gmoldable.Generate(params, *seed, i)
				if err != nil {
					log.Fatal(err)
				}
				safe, literal, err := bounds(w)
				if err != nil {
					log.Fatalf("%s n=%d instance %d: %v", kind, n, i, err)
				}
				fmt.Printf("%s-n%03d\t%d\t%.17g\t%.17g\n", kind, n, i, safe, literal)
			}
		}
	}
}

// bounds returns the safe and the literal interval-LP bounds of w, anchor cmax.
func bounds(w *workload.Workload) (safe, literal float64, err error) {
	in, err := emoldable.NewInstance(w)
	if err != nil {
		return 0, 0, err
	}
	solve := func(boundaries []float64) (float64, error) {
		lp, err := lpbound.New(w, boundaries)
		if err != nil {
			return 0, err
		}
		sol, err := lp.Solve()
		return sol.Value, err
	}
	_, taus := emoldable.BatchLengths(in.LambdaStar, in.PMin, emoldable.AnchorCmax)
	if safe, err = solve(emoldable.LPBoundaries(in.LambdaStar, in.PMin, emoldable.AnchorCmax)); err != nil {
		return 0, 0, err
	}
	literal, err = solve(append(append([]float64{}, taus...), 2*taus[len(taus)-1]))
	return safe, literal, err
}

// checkGolden compares the literal bound with LP_paper_literal_float of each golden
// example (anchor cmax).
func checkGolden(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var examples []struct {
		Name string     `json:"name"`
		M    int        `json:"m"`
		P    [][]string `json:"p"`
		W    []string   `json:"w"`
		DEMT struct {
			Literal float64 `json:"LP_paper_literal_float"`
		} `json:"DEMT_cest"`
	}
	if err := json.Unmarshal(data, &examples); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	rat := func(s string) float64 {
		r, ok := new(big.Rat).SetString(s)
		if !ok {
			log.Fatalf("%s: %q is not a fraction", path, s)
		}
		f, _ := r.Float64()
		return f
	}
	for _, ex := range examples {
		w := &workload.Workload{Processors: ex.M}
		for i, row := range ex.P {
			task := workload.Task{Weight: rat(ex.W[i])}
			for _, p := range row {
				task.Times = append(task.Times, rat(p))
			}
			w.Tasks = append(w.Tasks, task)
		}
		safe, literal, err := bounds(w)
		if err != nil {
			return fmt.Errorf("%s: %w", ex.Name, err)
		}
		verdict := "agrees"
		if math.Abs(literal-ex.DEMT.Literal) > 1e-9*ex.DEMT.Literal {
			verdict = "DIFFERS"
		}
		fmt.Fprintf(os.Stderr, "%s: safe %.6g, literal %.6g, golden literal %.6g: %s\n", ex.Name, safe, literal, ex.DEMT.Literal, verdict)
	}
	return nil
}
