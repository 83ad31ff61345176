package checkpoint

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/fawn-ide/fawn/internal/gitcmd"
)

// gitIndex reads files' contents from git's index, for the files a command
// changed that the book had not seen. The index's copy is used only when the
// index's stamp of the file (size, mtime, inode) is the one the scan saw
// before the command: then the index holds exactly the bytes that were on
// disk. Git runs through gitcmd, so a project's git config cannot make this
// run anything else; it runs no filter either, which these two commands
// never need.
type gitIndex struct {
	root string
}

// gitOptions are git's options for both commands: paths unquoted and
// taken as they are.
var gitOptions = []string{"-c", "core.quotePath=off", "--literal-pathspecs"}

func (g *gitIndex) command(ctx context.Context, args ...string) (*exec.Cmd, error) {
	return gitcmd.Git{Dir: g.root, Options: gitOptions}.Command(ctx, args...)
}

// indexEntry is one path of `git ls-files -s --debug`.
type indexEntry struct {
	object string
	mtime  int64 // ns
	ino    uint64
	size   int64
}

// lookup returns the bytes of each path whose index stamp matches before.
func (g *gitIndex) lookup(paths []string, before Tree) map[string][]byte {
	if len(paths) == 0 {
		return nil
	}
	if _, err := os.Stat(g.root); err != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd, err := g.command(ctx, append([]string{"ls-files", "-s", "--debug", "--"}, paths...)...)
	if err != nil {
		return nil
	}
	out, err := cmd.Output()
	if err != nil {
		return nil
	}
	entries := parseLsFiles(out)
	want := map[string]string{} // object → path
	var objects []string
	for _, p := range paths {
		e, ok := entries[p]
		st := before[p]
		if !ok || e.size != st.size || e.mtime != st.mtime || e.ino != st.ino {
			continue
		}
		if _, dup := want[e.object]; !dup {
			objects = append(objects, e.object)
		}
		want[e.object] = p
	}
	if len(objects) == 0 {
		return nil
	}
	blobs := g.catFile(ctx, objects)
	res := map[string][]byte{}
	for _, p := range paths {
		e, ok := entries[p]
		if !ok {
			continue
		}
		if data, ok := blobs[e.object]; ok && int64(len(data)) == before[p].size {
			// Same size as on disk: no clean/smudge filter changed the
			// bytes (CRLF conversion would have).
			res[p] = data
		}
	}
	return res
}

// parseLsFiles reads `git ls-files -s --debug` output.
func parseLsFiles(out []byte) map[string]*indexEntry {
	res := map[string]*indexEntry{}
	var cur *indexEntry
	for line := range strings.SplitSeq(string(out), "\n") {
		if !strings.HasPrefix(line, "  ") {
			// "<mode> <object> <stage>\t<path>"
			head, path, ok := strings.Cut(line, "\t")
			f := strings.Fields(head)
			if !ok || len(f) != 3 || f[2] != "0" {
				cur = nil
				continue
			}
			cur = &indexEntry{object: f[1]}
			res[path] = cur
			continue
		}
		if cur == nil {
			continue
		}
		for _, field := range strings.Split(strings.TrimSpace(line), "\t") {
			k, v, ok := strings.Cut(field, ": ")
			if !ok {
				continue
			}
			switch k {
			case "mtime":
				s, ns, _ := strings.Cut(v, ":")
				sec, _ := strconv.ParseInt(s, 10, 64)
				nsec, _ := strconv.ParseInt(ns, 10, 64)
				cur.mtime = sec*1e9 + nsec
			case "ino":
				cur.ino, _ = strconv.ParseUint(v, 10, 64)
			case "size":
				cur.size, _ = strconv.ParseInt(v, 10, 64)
			}
		}
	}
	return res
}

// catFile returns the contents of objects.
func (g *gitIndex) catFile(ctx context.Context, objects []string) map[string][]byte {
	cmd, err := g.command(ctx, "cat-file", "--batch")
	if err != nil {
		return nil
	}
	cmd.Stdin = strings.NewReader(strings.Join(objects, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		return nil
	}
	res := map[string][]byte{}
	r := bufio.NewReader(bytes.NewReader(out))
	for {
		head, err := r.ReadString('\n')
		if err != nil {
			return res
		}
		f := strings.Fields(head)
		if len(f) != 3 || f[1] != "blob" {
			continue // "<object> missing"
		}
		n, err := strconv.Atoi(f[2])
		if err != nil {
			return res
		}
		data := make([]byte, n+1) // and the newline after it
		if _, err := io.ReadFull(r, data); err != nil {
			return res
		}
		res[f[0]] = data[:n]
	}
}
