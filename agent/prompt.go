package agent

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"text/template"
	"time"

	"github.com/fawn-ide/fawn/skills"
	"github.com/fawn-ide/fawn/trust"
)

//go:embed prompt.tmpl
var promptText string

// promptData is what the system prompt template is filled with.
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

func buildSystemPrompt(d promptData) string {
	tmpl := template.Must(template.New("prompt").Parse(promptText))
	var b bytes.Buffer
	if err := tmpl.Execute(&b, d); err != nil {
		// The template is embedded and its data plain strings: this is a bug.
		panic("agent: system prompt: " + err.Error())
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
	d.Git, d.Branch, d.Status = gitState(d.Root)
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
			b, err = os.ReadFile(p)
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

// gitState reports the branch and a short status of the repository at root.
func gitState(root string) (ok bool, branch, status string) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	run := func(args ...string) (string, error) {
		cmd := exec.CommandContext(ctx, "git", append([]string{"-C", root}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0") // never take the index lock from under the user
		out, err := cmd.Output()
		return string(out), err
	}
	b, err := run("rev-parse", "--abbrev-ref", "HEAD")
	if err != nil {
		return false, "", ""
	}
	branch = strings.TrimSpace(b)
	st, err := run("status", "--porcelain")
	if err != nil {
		return true, branch, "unknown (git status failed)"
	}
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
