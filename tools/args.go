package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/cloudwego/eino/schema"
)

// toolInfo is the part every built-in tool shares: its name, its description
// to the model (the .md beside its source) and its parameters.
type toolInfo struct {
	name   string
	desc   string
	params map[string]*schema.ParameterInfo
}

// Name returns the tool's name as the model calls it.
func (t *toolInfo) Name() string { return t.name }

// Info describes the tool to the model.
func (t *toolInfo) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{
		Name:        t.name,
		Desc:        strings.TrimSpace(t.desc),
		ParamsOneOf: schema.NewParamsOneOfByParams(t.params),
	}, nil
}

// decodeArgs decodes a call's JSON arguments into v. Models send odd things
// ("" for no arguments, numbers as strings); the flex types below absorb the
// harmless ones, and the rest get a message the model can act on.
func decodeArgs(tool, argsJSON string, v any) error {
	data := bytes.TrimSpace([]byte(argsJSON))
	if len(data) == 0 || string(data) == "null" {
		data = []byte("{}")
	}
	if data[0] != '{' {
		return fmt.Errorf("%s arguments must be a JSON object, got: %s", tool, clip(string(data), 80))
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s arguments are not valid: %s", tool, jsonProblem(err))
	}
	return nil
}

// jsonProblem rewords an encoding/json error without Go type names.
func jsonProblem(err error) string {
	switch e := err.(type) {
	case *json.UnmarshalTypeError:
		if e.Field != "" {
			return fmt.Sprintf("%s must be %s, not a JSON %s", e.Field, jsonKind(e.Type.Kind().String()), e.Value)
		}
		return fmt.Sprintf("expected %s, got a JSON %s", jsonKind(e.Type.Kind().String()), e.Value)
	case *json.SyntaxError:
		return fmt.Sprintf("malformed JSON at byte %d: %v", e.Offset, e)
	}
	msg := err.Error()
	return strings.TrimPrefix(msg, "json: ")
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	case "slice", "array":
		return "an array"
	case "struct", "map":
		return "an object"
	default:
		return "a number"
	}
}

// typeError reports a value of the wrong kind; encoding/json adds the
// field's name to it, which a plain error would not get.
func typeError(b []byte, want reflect.Type) error {
	v := strings.TrimSpace(string(b))
	kind := "value"
	switch {
	case strings.HasPrefix(v, `"`):
		kind = "string"
	case strings.HasPrefix(v, "["):
		kind = "array"
	case strings.HasPrefix(v, "{"):
		kind = "object"
	case v == "true" || v == "false":
		kind = "boolean"
	case v != "":
		kind = "number"
	}
	return &json.UnmarshalTypeError{Value: kind + " " + clip(v, 40), Type: want}
}

// flexInt is an integer that also accepts "12" and 12.0.
type flexInt struct {
	Set bool
	N   int
}

func (f *flexInt) UnmarshalJSON(b []byte) error {
	s := strings.TrimSpace(string(b))
	if s == "null" {
		return nil
	}
	if unq, err := strconv.Unquote(s); err == nil {
		s = strings.TrimSpace(unq)
		if s == "" {
			return nil
		}
	}
	n, err := parseInt(s)
	if err != nil {
		return typeError(b, reflect.TypeFor[int]())
	}
	f.Set, f.N = true, n
	return nil
}

func parseInt(s string) (int, error) {
	if n, err := strconv.Atoi(s); err == nil {
		return n, nil
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || x != math.Trunc(x) || math.Abs(x) > 1<<40 {
		return 0, fmt.Errorf("not a whole number: %q", s)
	}
	return int(x), nil
}

// flexBool is a boolean that also accepts "true"/"false" and 0/1.
type flexBool bool

func (f *flexBool) UnmarshalJSON(b []byte) error {
	s := strings.Trim(strings.TrimSpace(strings.ToLower(string(b))), `"`)
	switch s {
	case "true", "1", "yes":
		*f = true
	case "false", "0", "no", "", "null":
		*f = false
	default:
		return typeError(b, reflect.TypeFor[bool]())
	}
	return nil
}

// flexInts is a list of integers that also accepts a string ("[1, 20]",
// "1-20", "1,20") or a single number.
type flexInts []int

func (f *flexInts) UnmarshalJSON(b []byte) error {
	s := strings.TrimSpace(string(b))
	if s == "null" {
		return nil
	}
	if unq, err := strconv.Unquote(s); err == nil {
		s = strings.TrimSpace(unq)
	}
	s = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	if strings.TrimSpace(s) == "" {
		*f = nil
		return nil
	}
	// "1-20" is a range, but "-1" alone and "5, -1" are numbers.
	var parts []string
	if i := strings.Index(s, "-"); i > 0 && !strings.Contains(s, ",") {
		parts = []string{s[:i], s[i+1:]}
	} else {
		parts = strings.Split(s, ",")
	}
	out := make([]int, 0, len(parts))
	for _, p := range parts {
		n, err := parseInt(strings.TrimSpace(p))
		if err != nil {
			return typeError(b, reflect.TypeFor[[]int]())
		}
		out = append(out, n)
	}
	*f = out
	return nil
}

// flexStrings is a list of strings that also accepts one string.
type flexStrings []string

func (f *flexStrings) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		if one != "" {
			*f = []string{one}
		}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return typeError(b, reflect.TypeFor[[]string]())
	}
	*f = many
	return nil
}

// clip shortens s for an error message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !isRuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// plural formats a count with its noun: "1 line", "3 lines".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// humanSize formats a byte count: "812 B", "12.3 KB", "200.0 MB".
func humanSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %cB", float64(n)/float64(div), "KMGTP"[exp])
}
