package chat

// History is what was sent from the input in this run of fawn, oldest
// first: what Up recalls, and what Ctrl-R searches before the sessions.
func (in *Input) History() []string { return append([]string(nil), in.history...) }
