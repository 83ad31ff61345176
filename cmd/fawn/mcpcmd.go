package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/secret"
)

const mcpUsage = `Usage:
  fawn mcp add NAME [--env KEY=VALUE]... -- COMMAND [ARGS...]   a server fawn starts (stdio)
  fawn mcp add NAME --url URL                                   a server fawn reaches (streamable HTTP)
  fawn mcp list                 the servers of your config (and of this directory's project)
  fawn mcp remove NAME          take a server out of your config

add and remove write your own config file (%s); a project's
servers go in its .fawn/config.yaml by hand. --env GITHUB_TOKEN='${GITHUB_TOKEN}' passes a
variable of fawn's environment without writing its value into the file.
`

// mcpCommand is `fawn mcp add|list|remove`: the MCP servers of the user's
// config file, edited in place (config.AddMCPServer keeps its comments and
// other keys). dir is the directory list reads a project's servers from.
func mcpCommand(args []string, dir string, stdout, stderr io.Writer) int {
	path := config.UserFile(nil)
	usage := func(msg string) int {
		if msg != "" {
			fmt.Fprintf(stderr, "fawn mcp: %s\n", msg)
		}
		fmt.Fprintf(stderr, mcpUsage, path)
		return exitUsage
	}
	if len(args) == 0 {
		return usage("add, list or remove?")
	}
	switch args[0] {
	case "-h", "--help", "help":
		fmt.Fprintf(stdout, mcpUsage, path)
		return exitOK
	case "add":
		name, srv, err := parseMCPAdd(args[1:])
		if err != nil {
			return usage(err.Error())
		}
		warnings, err := config.AddMCPServer(path, name, srv)
		if err != nil {
			fmt.Fprintf(stderr, "fawn mcp: %v\n", err)
			if errors.Is(err, config.ErrMCPExists) {
				return exitUsage
			}
			return exitFailure
		}
		for _, w := range warnings {
			fmt.Fprintf(stderr, "fawn mcp: note: %s\n", w)
		}
		fmt.Fprintf(stdout, "added the MCP server %s to %s: %s\n", name, path, endpoint(srv))
		// fawn reads server names in lower case (the permission rules
		// speak of mcp__github__…).
		fmt.Fprintf(stdout, "fawn starts it when it opens (/mcp in the chat shows it); its tools are mcp__%s__TOOL\n", strings.ToLower(name))
		return exitOK
	case "remove", "rm":
		if len(args) != 2 {
			return usage("remove takes one NAME")
		}
		if err := config.RemoveMCPServer(path, args[1]); err != nil {
			fmt.Fprintf(stderr, "fawn mcp: %v\n", err)
			if errors.Is(err, config.ErrMCPUnknown) {
				return exitUsage
			}
			return exitFailure
		}
		fmt.Fprintf(stdout, "removed the MCP server %s from %s\n", args[1], path)
		return exitOK
	case "list", "ls":
		if len(args) != 1 {
			return usage("list takes no arguments")
		}
		return mcpList(path, dir, stdout, stderr)
	}
	return usage(fmt.Sprintf("unknown subcommand %q", args[0]))
}

// parseMCPAdd reads NAME, then --env KEY=VALUE (or -e) and --url URL,
// then the command: after --, or from the first word that is not a flag.
func parseMCPAdd(args []string) (string, config.MCPServer, error) {
	var srv config.MCPServer
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return "", srv, errors.New("add needs a NAME first")
	}
	name := args[0]
	rest := args[1:]
	for len(rest) > 0 {
		a := rest[0]
		flag, val, hasVal := strings.Cut(a, "=")
		switch {
		case a == "--":
			srv.Command, srv.Args = first(rest[1:])
			rest = nil
			continue
		case flag == "--env" || flag == "-e" || flag == "--url":
			if !hasVal {
				if len(rest) < 2 {
					return "", srv, fmt.Errorf("%s needs a value", flag)
				}
				val, rest = rest[1], rest[1:]
			}
			if flag == "--url" {
				if srv.URL != "" {
					return "", srv, errors.New("--url is given twice")
				}
				srv.URL = val
				break
			}
			k, v, ok := strings.Cut(val, "=")
			if !ok || k == "" {
				return "", srv, fmt.Errorf("%s %q: expected KEY=VALUE", flag, val)
			}
			if srv.Env == nil {
				srv.Env = map[string]string{}
			}
			srv.Env[k] = v
		case strings.HasPrefix(a, "-"):
			return "", srv, fmt.Errorf("unknown flag %s (the server's own flags go after --)", a)
		default:
			srv.Command, srv.Args = first(rest)
			rest = nil
			continue
		}
		rest = rest[1:]
	}
	if srv.Command != "" && srv.URL != "" {
		return "", srv, errors.New("give a command or --url, not both")
	}
	if srv.Command == "" && srv.URL == "" {
		return "", srv, errors.New("add needs the server's command (after --) or --url")
	}
	if srv.URL != "" && len(srv.Env) > 0 {
		return "", srv, errors.New("--env is for a server fawn starts (a command), not one at a --url")
	}
	return name, srv, nil
}

// first splits a command line into the program and its arguments.
func first(words []string) (string, []string) {
	if len(words) == 0 {
		return "", nil
	}
	return words[0], append([]string(nil), words[1:]...)
}

// endpoint is a server's command line or URL, as list shows it (a URL
// without its password).
func endpoint(s config.MCPServer) string {
	if s.URL != "" {
		return secret.URL(s.URL)
	}
	return strings.TrimSpace(s.Command + " " + strings.Join(s.Args, " "))
}

// mcpList prints the servers of the user's file, then those of the
// project's .fawn/config.yaml in dir (which run only once it is trusted).
// Environment values are not shown: they may be keys.
func mcpList(userFile, dir string, stdout, stderr io.Writer) int {
	code := exitOK
	show := func(title, path string) {
		servers, err := config.MCPServersIn(path)
		if err != nil {
			fmt.Fprintf(stderr, "fawn mcp: %v\n", err)
			code = exitFailure
			return
		}
		if len(servers) == 0 {
			return
		}
		fmt.Fprintf(stdout, "%s (%s):\n", title, path)
		for _, s := range servers {
			fmt.Fprintf(stdout, "  %s — %s", s.Name, endpoint(s.MCPServer))
			if len(s.Env) > 0 {
				keys := make([]string, 0, len(s.Env))
				for k := range s.Env {
					keys = append(keys, k)
				}
				sort.Strings(keys)
				fmt.Fprintf(stdout, " · env %s", strings.Join(keys, ", "))
			}
			fmt.Fprintf(stdout, " · line %d\n", s.Line)
		}
	}
	show("your MCP servers", userFile)
	project := filepath.Join(dir, ".fawn", "config.yaml")
	if _, err := os.Lstat(project); err == nil && project != userFile {
		show("this project's MCP servers, which run once you trust the directory", project)
	}
	if servers, _ := config.MCPServersIn(userFile); len(servers) == 0 && code == exitOK {
		fmt.Fprintf(stdout, "no MCP servers in %s: fawn mcp add NAME -- COMMAND [ARGS...] adds one\n", userFile)
	}
	return code
}
