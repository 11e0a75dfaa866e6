package backfill

// BuiltinPick is the job the stepper's policy order would pick at the open
// decision point: the first of its order, as the built-in pass takes it.
func (t *Stepper) BuiltinPick() int {
	t.s.sortQueue()
	return t.s.order[0]
}
