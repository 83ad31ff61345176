// Package sonic is fawn's stand-in for github.com/bytedance/sonic: the five
// functions fawn's dependencies (eino, eino-ext's OpenAI client and the
// go-openai fork under it) call, implemented with encoding/json. See FAWN.md.
//
// sonic's JIT and its native SIMD code cost fawn about 4 MB of binary and
// several milliseconds of package initialisation before main; JSON is not
// where fawn spends its time, so the standard library does the work here.
// The behaviour follows sonic's default configuration: no HTML escaping on
// output, no trailing newline, numbers into float64 for interface values.
package sonic

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/bytedance/sonic/ast"
)

// Marshal returns the JSON encoding of v, without escaping HTML characters.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	out := buf.Bytes()
	// json.Encoder ends every value with a newline; Marshal does not.
	if n := len(out); n > 0 && out[n-1] == '\n' {
		out = out[:n-1]
	}
	return out, nil
}

// MarshalString is Marshal returning a string.
func MarshalString(v any) (string, error) {
	b, err := Marshal(v)
	return string(b), err
}

// Unmarshal parses the JSON in data into v.
func Unmarshal(data []byte, v any) error {
	return json.Unmarshal(data, v)
}

// UnmarshalString is Unmarshal reading a string.
func UnmarshalString(data string, v any) error {
	return json.Unmarshal([]byte(data), v)
}

// GetFromString finds the value at path in the JSON document src. Each step
// of path is an object key (string) or an array index (int).
func GetFromString(src string, path ...any) (ast.Node, error) {
	raw := json.RawMessage(src)
	for _, step := range path {
		switch k := step.(type) {
		case string:
			var obj map[string]json.RawMessage
			if err := json.Unmarshal(raw, &obj); err != nil {
				return ast.Node{}, fmt.Errorf("sonic: key %q: not an object: %w", k, err)
			}
			v, ok := obj[k]
			if !ok {
				return ast.Node{}, fmt.Errorf("sonic: key %q not found", k)
			}
			raw = v
		case int:
			var arr []json.RawMessage
			if err := json.Unmarshal(raw, &arr); err != nil {
				return ast.Node{}, fmt.Errorf("sonic: index %d: not an array: %w", k, err)
			}
			if k < 0 || k >= len(arr) {
				return ast.Node{}, fmt.Errorf("sonic: index %d out of range (length %d)", k, len(arr))
			}
			raw = arr[k]
		default:
			return ast.Node{}, fmt.Errorf("sonic: path step %v (%T) is neither a key nor an index", step, step)
		}
	}
	if !json.Valid(raw) {
		return ast.Node{}, fmt.Errorf("sonic: invalid JSON")
	}
	return ast.NewRaw(raw), nil
}
