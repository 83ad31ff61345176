package rules

import (
	"path"
	"strings"
)

// An allow rule names a command by its first words; what follows is
// allowed whatever it is. Some arguments make a harmless command write a
// file wherever they say (git log --output=~/.bashrc, go test -o
// .git/hooks/pre-commit) or run a program they name (rg --pre CMD): a
// rule about git log, go test or rg does not speak of those. cautions is
// the table of such argument forms; a command line holding one asks even
// under an allow rule (a bare bash rule still allows it, as it allows
// every line). It is the forms fawn knows of, not every way a program can
// be told to write: deny and ask rules, and the mode, still stand.

// caution is one command's argument forms that always ask.
type caution struct {
	// sub, when set, limits the forms to these subcommands (git archive).
	sub []string
	// long are GNU-style long options: --name, --name=value, and when
	// abbrev a unique prefix of name (getopt_long and git take --out for
	// --output).
	long   []string
	abbrev bool
	// short are single-letter options, alone or in a cluster (-uo F, -ni).
	short string
	// exact are words matched whole (find's -delete).
	exact []string
	// goFlags are the go command's flags: -name, --name, with =value or
	// not, and as -test.name after -args.
	goFlags []string
	why     string
}

const (
	writes = "it writes a file its argument names, anywhere"
	runs   = "it runs a program its argument names"
)

// cautions are by program (base name).
var cautions = map[string][]caution{
	"git": {
		{long: []string{"output"}, abbrev: true, why: writes},
		{sub: []string{"format-patch"}, short: "o", long: []string{"output-directory"}, abbrev: true, why: writes},
		{sub: []string{"archive"}, short: "o", why: writes},
		{sub: []string{"grep"}, short: "O", long: []string{"open-files-in-pager"}, abbrev: true, why: runs},
		{long: []string{"upload-pack", "receive-pack", "exec"}, why: runs},
		{sub: []string{"rebase"}, short: "x", why: runs},
		{sub: []string{"difftool", "mergetool"}, short: "xt", long: []string{"extcmd", "tool"}, abbrev: true, why: runs},
	},
	"go": {
		{goFlags: []string{"o", "coverprofile", "cpuprofile", "memprofile", "blockprofile", "mutexprofile", "trace", "outputdir", "modfile"}, why: writes},
	},
	"find": {
		{exact: []string{"-delete"}, why: "it deletes the files it finds"},
		{exact: []string{"-fprint", "-fprint0", "-fprintf", "-fls"}, why: writes},
	},
	"sort": {
		{short: "o", long: []string{"output"}, abbrev: true, why: writes},
		{long: []string{"compress-program"}, abbrev: true, why: runs},
	},
	"rg": {
		{long: []string{"pre", "hostname-bin"}, why: runs},
	},
	"sed": {
		{short: "i", long: []string{"in-place"}, abbrev: true, why: "it edits files in place"},
		{short: "f", long: []string{"file"}, abbrev: true, why: "its script comes from a file, which may write files or run programs"},
	},
	"curl": {
		{short: "oODcK", long: []string{"output", "output-dir", "remote-name", "remote-name-all", "dump-header", "cookie-jar", "trace", "trace-ascii", "stderr", "config", "libcurl", "etag-save", "hsts", "alt-svc"}, abbrev: true, why: writes},
	},
	"wget": {
		{short: "oOaPe", long: []string{"output-document", "output-file", "append-output", "directory-prefix", "execute", "config"}, abbrev: true, why: writes},
	},
	"tar": {
		{long: []string{"to-command", "use-compress-program", "checkpoint-action", "rsh-command", "rmt-command", "info-script", "new-volume-script"}, short: "IF", abbrev: true, why: runs},
	},
}

// argCaution says why a command's words always ask ("" when nothing in them
// does).
func argCaution(words []string) string {
	if len(words) == 0 {
		return ""
	}
	name := path.Base(words[0])
	args := words[1:]
	if name == "tar" {
		if why := tarCaution(args); why != "" {
			return why
		}
	}
	if name == "sed" {
		if why := sedCaution(args); why != "" {
			return why
		}
	}
	sub := ""
	if name == "git" {
		var global []string
		global, sub = gitGlobal(args)
		for _, w := range global {
			// -c and --config-env set any configuration, core.fsmonitor and
			// aliases to programs included; --exec-path= and --git-dir pick
			// the programs and the configuration git runs with.
			if w == "-c" || strings.HasPrefix(w, "-c") || w == "--config-env" || strings.HasPrefix(w, "--config-env=") ||
				strings.HasPrefix(w, "--exec-path=") || w == "--git-dir" || strings.HasPrefix(w, "--git-dir=") {
				return "git " + w + " sets the configuration or programs git runs with"
			}
		}
	}
	for _, c := range cautions[name] {
		if len(c.sub) > 0 && !contains(c.sub, sub) {
			continue
		}
		for _, w := range args {
			if matchesCaution(c, w) {
				return path.Base(words[0]) + " " + w + ": " + c.why
			}
		}
	}
	return ""
}

func matchesCaution(c caution, w string) bool {
	if contains(c.exact, w) {
		return true
	}
	if long, ok := strings.CutPrefix(w, "--"); ok && long != "" {
		name, _, _ := strings.Cut(long, "=")
		for _, l := range c.long {
			if name == l || (c.abbrev && name != "" && strings.HasPrefix(l, name)) {
				return true
			}
		}
	} else if len(w) > 1 && w[0] == '-' && c.short != "" {
		// A cluster: -uo, -ni, -sSLo. A letter after one that takes an
		// argument is that argument's (-k1o), which only asks once too
		// often.
		if strings.ContainsAny(w[1:], c.short) {
			return true
		}
	}
	for _, g := range c.goFlags {
		f := strings.TrimPrefix(strings.TrimPrefix(w, "-"), "-")
		if f == w {
			continue
		}
		f, _, _ = strings.Cut(f, "=")
		if f == g || f == "test."+g {
			return true
		}
	}
	return false
}

// gitGlobal splits git's arguments into its global options and the
// subcommand.
func gitGlobal(args []string) (global []string, sub string) {
	for i := 0; i < len(args); i++ {
		w := args[i]
		if !strings.HasPrefix(w, "-") {
			return global, w
		}
		global = append(global, w)
		switch w {
		case "-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--super-prefix":
			// The next word is the option's value.
			if i+1 < len(args) {
				i++
				global = append(global, args[i])
			}
		}
	}
	return global, ""
}

// tarCaution: tar asks unless it only lists (-t, --list) or compares
// (-d, --diff): extracting writes wherever the archive says (.git/hooks
// included) and creating or updating writes the archive -f names.
func tarCaution(args []string) string {
	for i, w := range args {
		long, isLong := strings.CutPrefix(w, "--")
		switch {
		case isLong:
			name, _, _ := strings.Cut(long, "=")
			for _, l := range []string{"extract", "get", "create", "append", "update", "concatenate", "catenate", "delete"} {
				if name != "" && strings.HasPrefix(l, name) && len(name) >= 2 {
					return "tar " + w + ": it writes files"
				}
			}
		case strings.HasPrefix(w, "-") || (i == 0 && w != ""):
			// The first word may be a cluster without a dash (tar xf a.tar).
			if strings.ContainsAny(strings.TrimPrefix(w, "-"), "xcruA") {
				return "tar " + w + ": it writes files"
			}
		}
	}
	return ""
}

// sedCaution: GNU sed's e and w commands, and the s command's e and w
// flags, run a program or write a file the script names. A script is
// looked for those letters outside the parts of s and y and the /regex/
// of addresses; a letter elsewhere (a label, a's text) only asks once too
// often. --sandbox makes sed refuse them.
func sedCaution(args []string) string {
	if contains(args, "--sandbox") {
		return ""
	}
	var scripts []string
	explicit := false // a script came from -e: every other word is a file
	next := func(i *int) string {
		if *i+1 < len(args) {
			*i++
			return args[*i]
		}
		return ""
	}
	operands := false
	for i := 0; i < len(args); i++ {
		w := args[i]
		switch {
		case operands || w == "-" || !strings.HasPrefix(w, "-"):
			if !explicit {
				scripts = append(scripts, w)
				explicit = true
			}
		case w == "--":
			operands = true
		case strings.HasPrefix(w, "--"):
			name, value, hasValue := strings.Cut(w[2:], "=")
			switch name {
			case "expression", "file", "line-length":
				if !hasValue {
					value = next(&i)
				}
				if name == "expression" {
					scripts = append(scripts, value)
					explicit = true
				}
			}
		default:
			// A cluster, read as getopt reads it: -e, -f and -l take the
			// rest of the word or the next word; -i the rest of the word.
		cluster:
			for j := 1; j < len(w); j++ {
				switch w[j] {
				case 'e', 'f', 'l':
					arg := w[j+1:]
					if arg == "" {
						arg = next(&i)
					}
					if w[j] == 'e' {
						scripts = append(scripts, arg)
						explicit = true
					}
					break cluster
				case 'i':
					break cluster
				}
			}
		}
	}
	for _, s := range scripts {
		if sedScriptWrites(s) {
			return "sed " + s + ": its script can write files or run programs (e, w, r, W, R)"
		}
	}
	return ""
}

// sedScriptWrites reports whether a sed script holds a command letter or s
// flag among e, w, W, r, R (r and R only read, but a script that names
// files is not what a rule about sed means either).
func sedScriptWrites(s string) bool {
	skip := func(i int, delim byte) int {
		// From i, past the next unescaped delim; returns the index after it.
		for ; i < len(s); i++ {
			if s[i] == '\\' {
				i++
				continue
			}
			if s[i] == delim {
				return i + 1
			}
		}
		return len(s)
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '/':
			i = skip(i+1, '/')
		case c == '\\' && i+1 < len(s):
			i = skip(i+2, s[i+1])
		case c == 's' || c == 'y':
			if i+1 >= len(s) {
				return false
			}
			d := s[i+1]
			i = skip(i+2, d)
			i = skip(i, d)
			if c == 's' {
				for i < len(s) && strings.IndexByte(";\n}", s[i]) < 0 {
					if s[i] == 'e' || s[i] == 'w' || s[i] == 'W' {
						return true
					}
					i++
				}
			}
		case strings.IndexByte("ewWrR", c) >= 0:
			return true
		default:
			i++
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
