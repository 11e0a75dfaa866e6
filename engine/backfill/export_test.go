package backfill

// BuiltinPick is the job the stepper's policy order would pick at the open
// decision point: the first of its order, as the built-in pass takes it.
func (t *Stepper) BuiltinPick() int {
	t.s.sortQueue()
	return t.s.order[0]
}

// CheckingKept returns p with every reuse of a kept node reservation
// checked against one built anew: a mismatch panics, naming both.
func CheckingKept(p Policy) Policy {
	p.checkKept = true
	return p
}
