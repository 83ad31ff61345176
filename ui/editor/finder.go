package editor

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/internal/safetext"
	"github.com/fawn-ide/fawn/project"
	"github.com/fawn-ide/fawn/ui/picker"
)

// FileLister lists a project's files for the finder: fn gets each file's
// path relative to root, with "/" separators. It must honour .gitignore and
// stop when ctx is done.
type FileLister func(ctx context.Context, root string, fn func(rel string) error) error

// projectFiles is the finder's lister: the project's files as the agent's
// tools see them (project.WalkFiles: .gitignore, .ignore and .git/info/exclude
// honoured, .git skipped), plus symlinks that lead to files.
func projectFiles(ctx context.Context, root string, fn func(rel string) error) error {
	return project.WalkFiles(ctx, root, "", func(rel string, d fs.DirEntry) error {
		switch {
		case d.IsDir():
			return nil
		case d.Type()&fs.ModeSymlink != 0:
			if fi, err := os.Stat(filepath.Join(root, rel)); err != nil || !fi.Mode().IsRegular() {
				return nil
			}
		case !d.Type().IsRegular():
			return nil
		}
		return fn(filepath.ToSlash(rel))
	})
}

// finderMatch is one file that matches the query.
type finderMatch struct {
	path  string
	score int
}

// finderShown is how many of the best matches are ranked for the list.
const finderShown = 500

// finder is the Ctrl-P overlay: a query line over the best matching files.
// The project is listed in the background each time it opens; results show
// as they come.
type finder struct {
	query   string
	files   []string
	m       picker.Matcher // narrows as the query grows, and the list
	matches []finderMatch  // the best matches, best first
	sel     int
	offset  int
	loading bool
	err     string
	cancel  context.CancelFunc
	rows    int // list rows at the last draw
	// list geometry at the last draw, for mouse clicks
	lx, ly, lw int
}

// openFinder shows the finder and starts listing files.
func (t *Tabs) openFinder() {
	if t.finder != nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	f := &finder{loading: true, cancel: cancel}
	t.finder = f
	lister := t.lister
	root := t.root
	box := t.box
	t.wg.Add(1)
	go func() {
		defer t.wg.Done()
		listInBatches(ctx, lister, root, func(got []string, done bool, err error) {
			box.post(func() {
				if t.finder != f {
					return
				}
				f.files = append(f.files, got...)
				if done {
					f.loading = false
					if err != nil && ctx.Err() == nil {
						f.err = "listing files: " + err.Error()
					}
				}
				f.filter()
			})
		})
	}()
}

// listInBatches lists root's files with lister and hands them to flush in
// batches, each packed side by side in memory (project.Pack: each key of
// the finder reads them all): the first few hundred at once, to show
// while the rest come, then 5,000 at a time; the last with done and the
// lister's error.
func listInBatches(ctx context.Context, lister FileLister, root string, flush func(batch []string, done bool, err error)) {
	var batch []string
	send := func(done bool, err error) {
		project.Pack(batch)
		flush(batch, done, err)
		batch = nil
	}
	first := true
	err := lister(ctx, root, func(rel string) error {
		batch = append(batch, rel)
		if len(batch) >= 5000 || (first && len(batch) >= 500) {
			first = false
			send(false, nil)
		}
		return ctx.Err()
	})
	send(true, err)
}

// OpenFinder shows the Ctrl-P finder (the chat's Ctrl-P opens it too).
func (t *Tabs) OpenFinder() { t.openFinder() }

func (t *Tabs) closeFinder() {
	if t.finder != nil {
		t.finder.cancel()
		t.finder = nil
	}
}

// filter ranks the files for the query with the picker's Matcher: a
// longer query only narrows the files the shorter one matched, a key taken
// back goes back to what the shorter query matched, files listed since are
// matched on their own, and only the best finderShown are ranked. Among
// equals the finder lists a shorter path first, then by name.
func (f *finder) filter() {
	f.m.ByText = true
	top := f.m.Top(f.files, strings.TrimSpace(f.query), finderShown)
	f.matches = f.matches[:0]
	for _, t := range top {
		f.matches = append(f.matches, finderMatch{path: t.Text, score: t.Score})
	}
	f.sel, f.offset = 0, 0
}

// fuzzyScore scores path for query with the picker's matcher and returns
// the byte offsets of the matched characters, to show them in bold.
func fuzzyScore(path, query string) (int, []int, bool) {
	var pos []int
	score, ok := picker.Score(path, []rune(strings.ToLower(query)), &pos)
	return score, pos, ok
}

// handleFinder takes the keys while the finder is open.
func (t *Tabs) handleFinder(ev *tcell.EventKey) {
	f := t.finder
	switch t.keyset.Finder.Action(ev) {
	case picker.ActCancel:
		t.closeFinder()
	case picker.ActPick:
		if f.sel < len(f.matches) {
			rel := f.matches[f.sel].path
			t.closeFinder()
			if err := t.Open(filepath.Join(t.root, filepath.FromSlash(rel)), 0); err != nil {
				t.flash(err.Error(), true)
			}
		}
	case picker.ActUp:
		f.move(-1)
	case picker.ActDown:
		f.move(1)
	case picker.ActPageUp:
		f.move(-max(1, f.rows-1))
	case picker.ActPageDown:
		f.move(max(1, f.rows-1))
	case picker.ActFirst:
		f.move(-len(f.matches))
	case picker.ActLast:
		f.move(len(f.matches))
	case picker.ActErase:
		if f.query != "" {
			r := []rune(f.query)
			f.query = string(r[:len(r)-1])
			f.filter()
		}
	case picker.ActClear:
		f.query = ""
		f.filter()
	default:
		if ev.Key() == tcell.KeyRune && ev.Modifiers()&(tcell.ModCtrl|tcell.ModAlt) == 0 {
			f.query += string(ev.Rune())
			f.filter()
		}
	}
}

func (f *finder) move(n int) {
	f.sel = max(0, min(len(f.matches)-1, f.sel+n))
	if f.sel < f.offset {
		f.offset = f.sel
	}
	if f.rows > 0 && f.sel >= f.offset+f.rows {
		f.offset = f.sel - f.rows + 1
	}
}

// drawFinder draws the overlay at the top of the area x, y, w, h.
func (t *Tabs) drawFinder(screen tcell.Screen, x, y, w, h int) {
	f := t.finder
	bw := min(w, max(40, w*3/4))
	bh := min(h, 22)
	if bw < 10 || bh < 4 {
		return
	}
	bx := x + (w-bw)/2
	base := t.base
	border := base.Foreground(t.th.Accent)
	for row := 0; row < bh; row++ {
		for col := 0; col < bw; col++ {
			screen.SetContent(bx+col, y+row, ' ', nil, base)
		}
	}
	for col := 1; col < bw-1; col++ {
		screen.SetContent(bx+col, y, '─', nil, border)
		screen.SetContent(bx+col, y+bh-1, '─', nil, border)
	}
	for row := 1; row < bh-1; row++ {
		screen.SetContent(bx, y+row, '│', nil, border)
		screen.SetContent(bx+bw-1, y+row, '│', nil, border)
	}
	screen.SetContent(bx, y, '╭', nil, border)
	screen.SetContent(bx+bw-1, y, '╮', nil, border)
	screen.SetContent(bx, y+bh-1, '╰', nil, border)
	screen.SetContent(bx+bw-1, y+bh-1, '╯', nil, border)
	putString(screen, bx+2, y, bw-4, " Open file ", border.Bold(true))
	count := strconv.Itoa(f.m.Matched()) + "/" + strconv.Itoa(len(f.files))
	if f.loading {
		count += " …"
	}
	if f.err != "" {
		count = f.err
	}
	putString(screen, bx+bw-3-len([]rune(count)), y+bh-1, bw-4, " "+count+" ", base.Foreground(t.th.Dim))
	// The query line.
	ix := bx + 2
	ix += putString(screen, ix, y+1, bw-4, "> ", base.Foreground(t.th.Accent).Bold(true))
	qw := putString(screen, ix, y+1, bx+bw-2-ix, f.query, base)
	if t.HasFocus() {
		screen.ShowCursor(ix+qw, y+1)
	}
	// The list.
	f.rows = bh - 3
	f.lx, f.ly, f.lw = bx+1, y+2, bw-2
	if f.sel >= f.offset+f.rows {
		f.offset = f.sel - f.rows + 1
	}
	for i := 0; i < f.rows && f.offset+i < len(f.matches); i++ {
		m := f.matches[f.offset+i]
		st := base
		if f.offset+i == f.sel {
			st = st.Background(t.th.Selection)
			for col := 1; col < bw-1; col++ {
				screen.SetContent(bx+col, y+2+i, ' ', nil, st)
			}
		}
		col := bx + 2
		limit := bx + bw - 2
		_, pos, _ := fuzzyScore(m.path, strings.TrimSpace(f.query))
		pi := 0
		for off, r := range m.path {
			if col >= limit {
				break
			}
			cs := st
			if pi < len(pos) && pos[pi] == off {
				cs = cs.Foreground(t.th.Accent).Bold(true)
				pi++
			} else if off < strings.LastIndexByte(m.path, '/')+1 {
				cs = cs.Foreground(t.th.Dim)
			}
			if shown, control := safetext.Rune(r); control {
				// A control character in a file's name shows (␛), never
				// raw.
				col += putString(screen, col, y+2+i, limit-col, shown, cs.Foreground(t.th.Warning))
				continue
			}
			_, n := screen.Put(col, y+2+i, string(r), cs)
			col += max(1, n)
		}
	}
	if len(f.matches) == 0 && !f.loading {
		putString(screen, bx+2, y+2, bw-4, "no file matches", base.Foreground(t.th.Dim))
	}
}

// finderClick opens the clicked entry; it reports whether the click was in the list.
func (t *Tabs) finderClick(mx, my int) bool {
	f := t.finder
	if my < f.ly || my >= f.ly+f.rows || mx < f.lx || mx >= f.lx+f.lw {
		return false
	}
	i := f.offset + my - f.ly
	if i < len(f.matches) {
		f.sel = i
		t.handleFinder(tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone))
	}
	return true
}

// putString draws s from x, at most w columns, and returns the columns
// used. Control characters show as safetext shows them (␛): s may be a
// file's name or a message with one.
func putString(screen tcell.Screen, x, y, w int, s string, st tcell.Style) int {
	s = safetext.Line(s)
	used := 0
	for s != "" && used < w {
		rest, n := screen.Put(x+used, y, s, st)
		if n == 0 {
			break
		}
		if used+n > w {
			screen.SetContent(x+used, y, ' ', nil, st)
			break
		}
		s = rest
		used += n
	}
	return used
}
