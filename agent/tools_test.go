package agent

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"

	"github.com/fawn-ide/fawn/tools"
)

// The tools of these tests are small but real: they read and write files in
// the test's directory and run commands with bash in their own process
// group, as fawn's own tools do.

type testTool struct {
	name   string
	params map[string]*schema.ParameterInfo
	plan   func(args map[string]any) (tools.Action, error)
	run    func(ctx context.Context, args map[string]any) (string, error)
}

func (t *testTool) Name() string { return t.name }

func (t *testTool) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: t.name, Desc: "test tool " + t.name, ParamsOneOf: schema.NewParamsOneOfByParams(t.params)}, nil
}

func (t *testTool) decode(argsJSON string) (map[string]any, error) {
	var m map[string]any
	if err := json.Unmarshal([]byte(argsJSON), &m); err != nil {
		return nil, fmt.Errorf("%s: arguments: %w", t.name, err)
	}
	for k, p := range t.params {
		if _, ok := m[k]; p.Required && !ok {
			return nil, fmt.Errorf("%s: missing parameter %q", t.name, k)
		}
	}
	return m, nil
}

func (t *testTool) Plan(_ context.Context, argsJSON string) (tools.Action, error) {
	m, err := t.decode(argsJSON)
	if err != nil {
		return tools.Action{}, err
	}
	return t.plan(m)
}

func (t *testTool) InvokableRun(ctx context.Context, argsJSON string, _ ...tool.Option) (string, error) {
	m, err := t.decode(argsJSON)
	if err != nil {
		return "", err
	}
	return t.run(ctx, m)
}

func str(m map[string]any, k string) string { s, _ := m[k].(string); return s }

func inside(root, p string) (string, error) {
	abs := filepath.Join(root, p)
	if rel, err := filepath.Rel(root, abs); err != nil || strings.HasPrefix(rel, "..") {
		return "", fmt.Errorf("%s is outside the project", p)
	}
	return abs, nil
}

func readFileTool(root string) tools.Tool {
	return &testTool{
		name:   "read_file",
		params: map[string]*schema.ParameterInfo{"path": {Type: schema.String, Required: true}},
		plan: func(m map[string]any) (tools.Action, error) {
			abs, err := inside(root, str(m, "path"))
			return tools.Action{Kind: tools.KindRead, Summary: "Read " + str(m, "path"), Path: abs}, err
		},
		run: func(ctx context.Context, m map[string]any) (string, error) {
			abs, err := inside(root, str(m, "path"))
			if err != nil {
				return "", err
			}
			b, err := os.ReadFile(abs)
			if err != nil {
				return "", err
			}
			tools.Emit(ctx, tools.FileViewed{Path: abs, Start: 1, End: -1})
			return string(b), nil
		},
	}
}

func writeFileTool(root string) tools.Tool {
	return &testTool{
		name: "write_file",
		params: map[string]*schema.ParameterInfo{
			"path":    {Type: schema.String, Required: true},
			"content": {Type: schema.String, Required: true},
		},
		plan: func(m map[string]any) (tools.Action, error) {
			abs, err := inside(root, str(m, "path"))
			return tools.Action{Kind: tools.KindEdit, Summary: "Write " + str(m, "path"), Path: abs}, err
		},
		run: func(ctx context.Context, m map[string]any) (string, error) {
			abs, err := inside(root, str(m, "path"))
			if err != nil {
				return "", err
			}
			before, _ := os.ReadFile(abs)
			if err := os.WriteFile(abs, []byte(str(m, "content")), 0o644); err != nil {
				return "", err
			}
			tools.Emit(ctx, tools.FileChanged{Path: abs, Before: before, After: []byte(str(m, "content")), Command: "create"})
			return "wrote " + str(m, "path"), nil
		},
	}
}

// bashTool runs a command with bash in its own process group, streams its
// output, and kills the whole group when ctx ends.
func bashTool(root string) tools.Tool {
	return &testTool{
		name:   "bash",
		params: map[string]*schema.ParameterInfo{"command": {Type: schema.String, Required: true}},
		plan: func(m map[string]any) (tools.Action, error) {
			c := str(m, "command")
			out, _ := m["outside_sandbox"].(bool)
			return tools.Action{Kind: tools.KindExec, Summary: "$ " + c, Command: c, Cwd: root, Outside: out}, nil
		},
		run: func(ctx context.Context, m map[string]any) (string, error) {
			cmd := exec.Command("bash", "-c", str(m, "command"))
			cmd.Dir = root
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			pr, pw, err := os.Pipe()
			if err != nil {
				return "", err
			}
			cmd.Stdout, cmd.Stderr = pw, pw
			if err := cmd.Start(); err != nil {
				pw.Close()
				pr.Close()
				return "", err
			}
			pw.Close()
			var out strings.Builder
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				sc := bufio.NewScanner(pr)
				for sc.Scan() {
					line := sc.Text() + "\n"
					out.WriteString(line)
					tools.Emit(ctx, tools.Output{Text: line})
				}
			}()
			waited := make(chan error, 1)
			go func() { waited <- cmd.Wait() }()
			var werr error
			select {
			case werr = <-waited:
			case <-ctx.Done():
				_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				<-waited
				pr.Close()
				wg.Wait()
				return out.String(), ctx.Err()
			}
			wg.Wait()
			pr.Close()
			var ee *exec.ExitError
			if errors.As(werr, &ee) {
				return fmt.Sprintf("%sexit status %d", out.String(), ee.ExitCode()), nil
			}
			return out.String(), werr
		},
	}
}

func testTools(root string) []tools.Tool {
	return []tools.Tool{readFileTool(root), writeFileTool(root), bashTool(root)}
}
