package tools

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"strings"
)

// How a text file is read for editing and written back byte-exact.

const (
	// maxEditSize bounds the files text_editor rewrites: an edit holds the
	// file, its new version and an undo copy in memory.
	maxEditSize = 32 << 20
	// sniffSize is how much of a file decides whether it is binary (as git does).
	sniffSize = 8000
)

// utf8BOM is the UTF-8 byte order mark.
const utf8BOM = "\xef\xbb\xbf"

// textForm is how a file's text is stored on disk, apart from the text itself.
type textForm struct {
	bom  bool // starts with a UTF-8 byte order mark
	crlf bool // every line break is CRLF (mixed files are edited as they are)
}

// decodeText splits raw file content into its text (no BOM; LF line breaks
// when the file is consistently CRLF) and its form.
func decodeText(raw []byte) (string, textForm) {
	var f textForm
	if bytes.HasPrefix(raw, []byte(utf8BOM)) {
		f.bom = true
		raw = raw[len(utf8BOM):]
	}
	if n := bytes.Count(raw, []byte("\n")); n > 0 && bytes.Count(raw, []byte("\r\n")) == n {
		f.crlf = true
		return string(bytes.ReplaceAll(raw, []byte("\r\n"), []byte("\n"))), f
	}
	return string(raw), f
}

// encodeText is the inverse of decodeText.
func encodeText(text string, f textForm) []byte {
	var b bytes.Buffer
	b.Grow(len(text) + len(text)/32 + 3)
	if f.bom {
		b.WriteString(utf8BOM)
	}
	if f.crlf {
		b.WriteString(strings.ReplaceAll(text, "\n", "\r\n"))
	} else {
		b.WriteString(text)
	}
	return b.Bytes()
}

// adaptNewlines makes text the model sent fit a file's text: a CRLF file's
// text is held with LF breaks; an LF file gets LF breaks.
func adaptNewlines(s string, f textForm, fileText string) string {
	if f.crlf || !strings.Contains(fileText, "\r\n") {
		return strings.ReplaceAll(s, "\r\n", "\n")
	}
	return s
}

// isBinary reports whether the start of a file looks binary (a NUL byte).
func isBinary(head []byte) bool {
	return bytes.IndexByte(head, 0) >= 0
}

// binaryError describes a binary file the model tried to read as text.
func binaryError(rel string, size int64, head []byte) error {
	return fmt.Errorf("%s is a binary file (%s, %s): text_editor works on text files only",
		rel, humanSize(size), http.DetectContentType(head))
}

// diskFile is a file read whole for editing.
type diskFile struct {
	raw  []byte
	info fs.FileInfo
	hash [32]byte
}

// readForEdit reads the file at abs whole (its content from Buffers when
// set), refusing directories, binary files and files too large to edit. A
// missing file returns fs.ErrNotExist.
func (e *Env) readForEdit(ctx context.Context, abs, rel string) (*diskFile, error) {
	info, err := os.Stat(abs)
	if err != nil {
		return nil, err
	}
	if info.IsDir() {
		return nil, fmt.Errorf("%s is a directory: text_editor edits files", rel)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s)", rel, info.Mode().Type())
	}
	if info.Size() > maxEditSize {
		return nil, fmt.Errorf("%s is %s; text_editor edits files up to %s: use bash (sed, patch) for this one",
			rel, humanSize(info.Size()), humanSize(maxEditSize))
	}
	if e.Buffers != nil {
		// A binary file is refused as such before the editor is asked.
		f, err := os.Open(abs)
		if err != nil {
			return nil, err
		}
		head, bin, err := binaryOnDisk(f)
		f.Close()
		if err != nil {
			return nil, err
		}
		if bin {
			return nil, binaryError(rel, info.Size(), head[:min(len(head), 512)])
		}
	}
	raw, err := e.readContent(ctx, abs)
	if err != nil {
		return nil, err
	}
	if len(raw) > maxEditSize {
		return nil, fmt.Errorf("%s grew to %s while being read; text_editor edits files up to %s", rel, humanSize(int64(len(raw))), humanSize(maxEditSize))
	}
	if isBinary(raw[:min(len(raw), sniffSize)]) {
		return nil, binaryError(rel, int64(len(raw)), raw[:min(len(raw), 512)])
	}
	return &diskFile{raw: raw, info: info, hash: sha256.Sum256(raw)}, nil
}
