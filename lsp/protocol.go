package lsp

import (
	"encoding/json"
	"net/url"
	"path/filepath"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The part of the Language Server Protocol fawn speaks, as plain structs.

// Position is a zero-based line and character offset, in the units the
// server chose (UTF-8 bytes or UTF-16 code units).
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Range is a span between two positions.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Location is a range in a document.
type Location struct {
	URI   string `json:"uri"`
	Range Range  `json:"range"`
}

type locationLink struct {
	TargetURI            string `json:"targetUri"`
	TargetRange          Range  `json:"targetRange"`
	TargetSelectionRange Range  `json:"targetSelectionRange"`
}

// Severity of a diagnostic, as in the protocol.
const (
	SeverityError   = 1
	SeverityWarning = 2
	SeverityInfo    = 3
	SeverityHint    = 4
)

// Diagnostic is one problem a server reports.
type Diagnostic struct {
	Range    Range           `json:"range"`
	Severity int             `json:"severity,omitempty"`
	Code     json.RawMessage `json:"code,omitempty"`
	Source   string          `json:"source,omitempty"`
	Message  string          `json:"message"`
}

type publishDiagnosticsParams struct {
	URI         string       `json:"uri"`
	Version     *int         `json:"version,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

type textDocumentItem struct {
	URI        string `json:"uri"`
	LanguageID string `json:"languageId"`
	Version    int    `json:"version"`
	Text       string `json:"text"`
}

type docID struct {
	URI string `json:"uri"`
}

type versionedDocID struct {
	URI     string `json:"uri"`
	Version int    `json:"version"`
}

type docPosition struct {
	TextDocument docID    `json:"textDocument"`
	Position     Position `json:"position"`
}

type symbolInformation struct {
	Name          string   `json:"name"`
	Kind          int      `json:"kind"`
	Location      Location `json:"location"`
	ContainerName string   `json:"containerName,omitempty"`
}

type documentSymbol struct {
	Name           string           `json:"name"`
	Detail         string           `json:"detail,omitempty"`
	Kind           int              `json:"kind"`
	Range          Range            `json:"range"`
	SelectionRange Range            `json:"selectionRange"`
	Children       []documentSymbol `json:"children,omitempty"`
}

// symbolKinds names the protocol's symbol kinds (1-based).
var symbolKinds = []string{"", "file", "module", "namespace", "package", "class", "method", "property", "field",
	"constructor", "enum", "interface", "function", "variable", "constant", "string", "number", "boolean",
	"array", "object", "key", "null", "enum member", "struct", "event", "operator", "type parameter"}

func symbolKind(k int) string {
	if k > 0 && k < len(symbolKinds) {
		return symbolKinds[k]
	}
	return "symbol"
}

// URI turns an absolute path into a file:// URI.
func URI(path string) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
	return u.String()
}

// PathOf turns a file:// URI back into a path; "" for any other scheme.
func PathOf(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return ""
	}
	return filepath.FromSlash(u.Path)
}

// languageID is the protocol's language identifier for a file.
func languageID(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".go":
		return "go"
	case ".ts", ".mts", ".cts":
		return "typescript"
	case ".tsx":
		return "typescriptreact"
	case ".js", ".mjs", ".cjs":
		return "javascript"
	case ".jsx":
		return "javascriptreact"
	case ".py", ".pyi":
		return "python"
	case ".rs":
		return "rust"
	case ".c", ".h":
		return "c"
	case ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx":
		return "cpp"
	}
	return strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
}

// lineAt returns line n (zero-based) of text, without its line ending.
func lineAt(text string, n int) string {
	for i := 0; i < n; i++ {
		j := strings.IndexByte(text, '\n')
		if j < 0 {
			return ""
		}
		text = text[j+1:]
	}
	if j := strings.IndexByte(text, '\n'); j >= 0 {
		text = text[:j]
	}
	return strings.TrimSuffix(text, "\r")
}

// column converts a server's character offset on line into a one-based
// column counted in characters (runes).
func column(line string, character int, utf8Units bool) int {
	col, units := 1, 0
	for _, r := range line {
		if units >= character {
			break
		}
		if utf8Units {
			units += utf8.RuneLen(r)
		} else {
			units += len(utf16.Encode([]rune{r}))
		}
		col++
	}
	return col
}

// offset converts a one-based column in characters on line into the
// server's character offset.
func offset(line string, col int, utf8Units bool) int {
	units, c := 0, 1
	for _, r := range line {
		if c >= col {
			break
		}
		if utf8Units {
			units += utf8.RuneLen(r)
		} else {
			units += len(utf16.Encode([]rune{r}))
		}
		c++
	}
	return units
}

// byteOffset converts a server's character offset on line into a byte
// offset (clamped to the line).
func byteOffset(line string, character int, utf8Units bool) int {
	if utf8Units {
		return min(max(character, 0), len(line))
	}
	units := 0
	for i, r := range line {
		if units >= character {
			return i
		}
		units += len(utf16.Encode([]rune{r}))
	}
	return len(line)
}

// Problem is a diagnostic placed in a file's text: zero-based lines and
// byte offsets within them, as an editor counts.
type Problem struct {
	Line, Col, EndLine, EndCol int
	Severity                   int
	Message, Source            string
}

// problems places ds in text.
func problems(text string, ds []Diagnostic, utf8Units bool) []Problem {
	out := make([]Problem, 0, len(ds))
	for _, d := range ds {
		sev := d.Severity
		if sev == 0 {
			sev = SeverityError
		}
		out = append(out, Problem{
			Line: d.Range.Start.Line, Col: byteOffset(lineAt(text, d.Range.Start.Line), d.Range.Start.Character, utf8Units),
			EndLine: d.Range.End.Line, EndCol: byteOffset(lineAt(text, d.Range.End.Line), d.Range.End.Character, utf8Units),
			Severity: sev, Message: d.Message, Source: d.Source,
		})
	}
	return out
}
