package tools

import (
	"path/filepath"
	"strings"
)

// protectedDir says why a directory (at any depth) is protected: its files
// make a program run, or decide what fawn, Claude Code, git, an editor or
// CI does, without anyone reading them first.
func protectedDir(name string) string {
	switch name {
	case ".git":
		return "it is inside .git/, whose config and hooks make git run programs"
	case ".fawn":
		return "it is inside .fawn/, fawn's project configuration and extensions"
	case ".claude":
		return "it is inside .claude/, the project's settings, commands, agents and hooks"
	case ".githooks":
		return "it is inside .githooks/, git hooks a clone points core.hooksPath at"
	case ".husky":
		return "it is inside .husky/, git hooks that husky installs"
	case ".vscode":
		return "it is inside .vscode/, whose tasks, launch configurations and settings make VS Code run programs"
	case ".idea":
		return "it is inside .idea/, whose run configurations and tools make JetBrains IDEs run programs"
	case ".devcontainer":
		return "it is inside .devcontainer/, whose commands run on the host and in the container when it is built"
	case ".circleci":
		return "it is inside .circleci/, CI jobs that run with the project's secrets"
	}
	return ""
}

// protectedFile says why a file (at any depth) is protected, as
// protectedDir does for directories.
func protectedFile(name string) string {
	switch name {
	case ".gitattributes":
		return "it is .gitattributes, which chooses the filters and diff programs git runs"
	case ".gitmodules":
		return "it is .gitmodules, which says where git fetches submodules from"
	case ".envrc":
		return "it is .envrc, which direnv runs on entering the directory"
	case ".mise.toml":
		return "it is .mise.toml, whose hooks and environment mise runs on entering the directory"
	case "mise.toml":
		return "it is mise.toml, whose hooks and environment mise runs on entering the directory"
	case ".pre-commit-config.yaml":
		return "it is .pre-commit-config.yaml, the programs pre-commit runs on every commit"
	case "lefthook.yml":
		return "it is lefthook.yml, the programs lefthook runs as git hooks"
	case ".gitlab-ci.yml":
		return "it is .gitlab-ci.yml, CI jobs that run with the project's secrets"
	}
	return ""
}

// Protected says why a write to abs, a path inside root, must always ask,
// or "" when it need not: the files above make git, direnv, an editor, a
// dev container or CI run programs, and .fawn/ and .claude/ hold what fawn
// and Claude Code act on, so a write there could run code or widen what
// the agent may do next time without a sign. The agent asks for these in
// every mode but yolo, whatever the user allowed for the session. Names
// match without regard to case: on a case-insensitive file system .Git is
// .git.
//
// Not protected: build files (Makefile, package.json, go.mod …) and .env.
// They change what runs when the user builds, tests or starts the
// project, as the source they sit beside does; the diff of every edit is
// shown and the user runs them.
func Protected(root, abs string) string {
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "it is outside the project"
	}
	parts := strings.Split(strings.ToLower(rel), string(filepath.Separator))
	for i, part := range parts {
		last := i == len(parts)-1
		if why := protectedDir(part); why != "" {
			return why
		}
		if part == ".github" && i+1 < len(parts) && (parts[i+1] == "workflows" || parts[i+1] == "actions") {
			return "it is inside .github/" + parts[i+1] + "/, CI jobs that run with the project's secrets"
		}
		if why := protectedFile(part); why != "" && last {
			return why
		}
	}
	return ""
}
