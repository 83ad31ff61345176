package main

import (
	"slices"
	"testing"
)

func TestSplitRules(t *testing.T) {
	for in, want := range map[string][]string{
		"bash(git log:*), text_editor":           {"bash(git log:*)", "text_editor"},
		"Bash(npm run test) Edit":                {"Bash(npm run test)", "Edit"},
		"  bash(echo a,b)\ttext_editor(docs/**)": {"bash(echo a,b)", "text_editor(docs/**)"},
		"":                                       nil,
	} {
		if got := splitRules(in); !slices.Equal(got, want) {
			t.Errorf("splitRules(%q) = %q, want %q", in, got, want)
		}
	}
}
