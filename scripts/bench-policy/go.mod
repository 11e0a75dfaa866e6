module kthbench

go 1.26.8

require github.com/sweep-sched/sweep v0.0.0

require gopkg.in/yaml.v3 v3.0.1 // indirect

replace github.com/sweep-sched/sweep => ../..
