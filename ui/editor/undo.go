package editor

// Undo history. Every change is recorded as a splice of whole lines (the
// lines it replaced and the lines that replaced them), so undoing restores
// exactly the bytes that were there, whatever the change was. Splices are
// grouped into steps; a step is what one undo reverts.

type splice struct {
	at       int
	old, new []string
}

type step struct {
	id            uint64
	splices       []splice
	before, after Pos
	merge         string // "" never merges
	// keep: a step that changed nothing but is one all the same (vim's
	// undo keeps an operator over an empty region); it leaves the text's
	// state, so Modified, alone.
	keep      bool
	fmtBefore *format
	fmtAfter  *format
}

type history struct {
	undo, redo []*step
	open       *step
	depth      int // Begin/End nesting
	nextID     uint64
	saved      uint64 // state() when the text matched the file
	// sealed stops the newest step from taking more merged changes
	// (after an undo, a save or a cursor jump).
	sealed bool
}

// maxUndo bounds memory; the oldest steps are dropped past it.
const maxUndo = 10000

// state identifies the text: the newest applied step that changed it, 0
// for as loaded.
func (h *history) state() uint64 {
	for i := len(h.undo) - 1; i >= 0; i-- {
		if g := h.undo[i]; len(g.splices) > 0 || g.fmtAfter != nil {
			return g.id
		}
	}
	return 0
}

func (h *history) begin(cursor Pos, merge string) {
	h.depth++
	if h.depth > 1 {
		return
	}
	if merge != "" && !h.sealed && len(h.undo) > 0 {
		top := h.undo[len(h.undo)-1]
		if top.merge == merge && top.after == cursor && top.id != h.saved {
			// Reopen the newest step: the change continues it.
			h.undo = h.undo[:len(h.undo)-1]
			h.open = top
			return
		}
	}
	h.nextID++
	h.open = &step{id: h.nextID, before: cursor, merge: merge}
}

func (h *history) end(cursor Pos) {
	if h.depth == 0 {
		return
	}
	h.depth--
	if h.depth > 0 {
		return
	}
	g := h.open
	h.open = nil
	if g == nil || (len(g.splices) == 0 && g.fmtAfter == nil && !g.keep) {
		return
	}
	g.after = cursor
	h.undo = append(h.undo, g)
	if len(h.undo) > maxUndo {
		h.undo = append(h.undo[:0], h.undo[len(h.undo)-maxUndo:]...)
	}
	h.redo = h.redo[:0]
	h.sealed = false
}

func (h *history) record(s splice) {
	if h.open == nil {
		// A change outside Begin/End is a step of its own.
		h.nextID++
		h.redo = h.redo[:0]
		h.undo = append(h.undo, &step{id: h.nextID, splices: []splice{s}})
		h.sealed = true
		return
	}
	if n := len(h.open.splices); n > 0 {
		prev := &h.open.splices[n-1]
		if prev.at == s.at && len(prev.new) == len(s.old) {
			// s rewrites exactly what prev wrote: keep one splice, so typing
			// a long line costs one copy of it, not one per key.
			prev.new = s.new
			return
		}
	}
	h.open.splices = append(h.open.splices, s)
}

func (h *history) recordFormat(before, after format) {
	if h.open == nil {
		h.nextID++
		h.undo = append(h.undo, &step{id: h.nextID})
		h.open = h.undo[len(h.undo)-1]
		defer func() { h.open = nil }()
	}
	if h.open.fmtBefore == nil {
		h.open.fmtBefore = &before
	}
	h.open.fmtAfter = &after
}

func (h *history) popUndo() *step {
	if len(h.undo) == 0 || h.open != nil {
		return nil
	}
	g := h.undo[len(h.undo)-1]
	h.undo = h.undo[:len(h.undo)-1]
	h.redo = append(h.redo, g)
	h.sealed = true
	return g
}

func (h *history) popRedo() *step {
	if len(h.redo) == 0 || h.open != nil {
		return nil
	}
	g := h.redo[len(h.redo)-1]
	h.redo = h.redo[:len(h.redo)-1]
	h.undo = append(h.undo, g)
	h.sealed = true
	return g
}

// keepOpen keeps the open step even when it ends without a change.
func (h *history) keepOpen() {
	if h.open != nil {
		h.open.keep = true
	}
}

// seal ends merging into the newest step.
func (h *history) seal() { h.sealed = true }
