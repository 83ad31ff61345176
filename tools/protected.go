package tools

import (
	"path/filepath"
	"strings"
)

// Protected says why a write to abs, a path inside root, must always ask,
// or "" when it need not. Files under .git/ make git run programs
// (core.fsmonitor, hooks) and .fawn/ and .claude/ hold the project
// configuration, commands, agents and hooks that fawn and Claude Code act
// on, so a write there could widen what the agent may do next time without
// a sign. The agent asks for these in every mode but yolo, whatever the
// user allowed for the session.
func Protected(root, abs string) string {
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "it is outside the project"
	}
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		switch part {
		case ".git":
			return "it is inside .git/, whose config and hooks make git run programs"
		case ".fawn":
			return "it is inside .fawn/, fawn's project configuration and extensions"
		case ".claude":
			return "it is inside .claude/, the project's settings, commands, agents and hooks"
		}
	}
	return ""
}
