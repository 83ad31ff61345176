package agent

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/fawn-ide/fawn/internal/gitcmd"
	"github.com/fawn-ide/fawn/skills"
	"github.com/fawn-ide/fawn/trust"
)

// promptData is what the system prompt says about the project and the session.
type promptData struct {
	Root, OS, Date string
	Git            bool
	Branch, Status string
	Tools          string
	Instructions   []instructions
	Skills         []skills.Skill
}

// instructions is the text of an AGENTS.md or CLAUDE.md file.
type instructions struct {
	Path, Text string
}

// maxInstructions bounds each instructions file in the prompt.
const maxInstructions = 40_000

// The system prompt is written with plain string building, not text/template:
// a reachable text/template executor calls reflect's MethodByName, and then
// the linker must keep every exported method of every type in the binary
// (4.9 MB of fawn's 25.7 MB). TestSystemPromptAsTheTemplateWrote holds this
// to what the template it replaced (testdata/prompt.tmpl) wrote, and
// cmd/fawn's TestLinkerDropsUnusedMethods to the linker keeping them out.

const promptIntro = `You are fawn, a coding agent. You work on the user's project inside a terminal IDE, with the user watching and joining in: files you view or edit open in their editor, your shell commands run in a terminal pane they can see and type into, and your to-do list is shown beside the chat.`

const promptHowToWork = `# How to work
- Explore before you change anything: look at the layout, search, and read the relevant code first.
- View a file before you edit it, and make edits with the file tools, not with shell commands.
- Prefer the file tools to the shell for reading and searching files; use the shell to build, test, run programs and inspect state.
- For work of three or more steps, write a to-do list with todo_write and keep it current: one item in progress at a time, each item marked completed as soon as it is done.
- Before each tool call, say in one short sentence what you are about to do.
- When you mention code, give its file path and line number (path/to/file:42).
- Some calls need the user's permission. If one is denied, do not repeat it unchanged: adapt, or ask the user.
- Be brief and concrete. When you finish, say what you changed and how you checked it.`

func buildSystemPrompt(d promptData) string {
	var b strings.Builder
	b.WriteString(promptIntro)
	b.WriteString("\n\n# Environment\n")
	b.WriteString("- Project root: " + d.Root + ". Tool paths are relative to it (or absolute inside it).\n")
	b.WriteString("- OS: " + d.OS + ". Shell: bash, one persistent session shared with the user.\n")
	b.WriteString("- Today: " + d.Date + ".")
	if d.Git {
		b.WriteString("\n- Git branch: " + d.Branch + ". Status: " + d.Status)
	} else {
		b.WriteString("\n- The project is not a git repository.")
	}
	if d.Tools != "" {
		b.WriteString("\n- Your tools: " + d.Tools + ".")
	}
	b.WriteString("\n\n" + promptHowToWork)
	if strings.Contains(", "+d.Tools+",", ", exit_plan,") {
		// The same words in every mode, so the prompt (and a server's
		// cache of it) does not change when the user switches modes.
		b.WriteString("\n\n" + promptPlanMode)
	}
	if len(d.Skills) > 0 {
		b.WriteString("\n\n# Skills\nLoad a skill with the skill tool when the task is what it describes, then follow it:")
		for _, sk := range d.Skills {
			b.WriteString("\n- " + sk.Name + ": " + sk.Description)
		}
	}
	for _, in := range d.Instructions {
		b.WriteString("\n\n# Instructions from " + in.Path + "\n" + in.Text)
	}
	return strings.TrimSpace(b.String()) + "\n"
}

// promptData gathers the facts the system prompt states. It runs git, so it
// is called at the start of a turn, never from NewSession.
func (s *Session) promptData() promptData {
	d := promptData{
		Root:  s.env.Root,
		OS:    osName(),
		Date:  time.Now().Format("Monday 2 January 2006"),
		Tools: strings.Join(s.names, ", "),
	}
	if d.Root == "" {
		d.Root, _ = os.Getwd()
	}
	d.Git, d.Branch, d.Status = gitState(d.Root, s.trusted)
	for _, sk := range s.skills {
		if sk.Err == nil {
			d.Skills = append(d.Skills, sk)
		}
	}

	var paths []string
	for _, name := range []string{"AGENTS.md", "CLAUDE.md"} {
		paths = append(paths, filepath.Join(d.Root, name))
	}
	userDir := s.cfg.ConfigDir
	if userDir == "" {
		if dir, err := os.UserConfigDir(); err == nil {
			userDir = filepath.Join(dir, "fawn")
		}
	}
	if userDir != "" {
		paths = append(paths, filepath.Join(userDir, "AGENTS.md"))
	}
	for i, p := range paths {
		var b []byte
		var err error
		if i < 2 { // the project's: only a file inside it
			b, err = trust.ReadProjectFile(d.Root, p, 4<<20)
		} else {
			b, err = trust.ReadFile(p, 4<<20)
		}
		if err != nil || len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		text := string(b)
		if len(text) > maxInstructions {
			text = text[:maxInstructions] + "\n[… cut: the file is longer than fawn puts in the prompt]"
		}
		d.Instructions = append(d.Instructions, instructions{Path: p, Text: strings.TrimSpace(text)})
	}
	return d
}

func osName() string {
	name := runtime.GOOS
	if f, err := os.Open("/etc/os-release"); err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "PRETTY_NAME="); ok {
				name += " (" + strings.Trim(v, `"`) + ")"
				break
			}
		}
	}
	return name + " " + runtime.GOARCH
}

// gitState reports the branch and a short status of the repository at
// root. The branch is read from .git's files; the status needs git to read
// the project's files, which it may do through filters the user's git
// config names, so only in a trusted project (gitcmd keeps the
// repository's own config from running anything either way).
func gitState(root string, trusted bool) (ok bool, branch, status string) {
	head, err := gitcmd.ReadHead(root)
	if errors.Is(err, gitcmd.ErrNoRepository) {
		return false, "", ""
	}
	branch = "unknown"
	if err == nil {
		branch = head.String()
	}
	if !trusted {
		return true, branch, "not read (the project is not trusted)."
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	out, err := gitcmd.Git{Dir: root, UserFilters: true}.Output(ctx, "status", "--porcelain")
	if err != nil {
		return true, branch, "unknown (git status failed)"
	}
	st := string(out)
	lines := strings.Split(strings.TrimRight(st, "\n"), "\n")
	if strings.TrimSpace(st) == "" {
		return true, branch, "clean."
	}
	changed, untracked := 0, 0
	for _, l := range lines {
		if strings.HasPrefix(l, "??") {
			untracked++
		} else {
			changed++
		}
	}
	status = fmt.Sprintf("%d changed, %d untracked file(s)", changed, untracked)
	const show = 10
	if len(lines) > show {
		lines = append(lines[:show], fmt.Sprintf("… and %d more", len(lines)-show))
	}
	return true, branch, status + ":\n  " + strings.Join(lines, "\n  ")
}

// promptPlanMode is what the model needs of plan mode: a refused edit or
// command says the mode is on; exit_plan ends it.
const promptPlanMode = "# Plan mode\n" +
	"The user may put fawn in plan mode: edits and commands are then refused (a refused call says so). " +
	"In plan mode, explore with the read-only tools, then call exit_plan with your plan; do not ask for approval in your text. " +
	"When the user approves it, fawn leaves plan mode and you carry the plan out in the same turn."
