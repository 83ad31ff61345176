package tools

import (
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// fileTypeGlobs returns the base-name globs of a grep file type, named as
// ripgrep names them (go, py, js, ts, rust, …), or nil for an unknown type.
func fileTypeGlobs(name string) []string {
	switch strings.ToLower(strings.TrimPrefix(name, ".")) {
	case "asm":
		return []string{"*.S", "*.asm", "*.s"}
	case "bazel":
		return []string{"*.BUILD", "*.bazel", "*.bazelrc", "*.bzl", "BUILD", "WORKSPACE"}
	case "c":
		return []string{"*.c", "*.h", "*.H"}
	case "clojure", "clj":
		return []string{"*.clj", "*.cljc", "*.cljs", "*.cljx", "*.edn"}
	case "cmake":
		return []string{"*.cmake", "CMakeLists.txt"}
	case "config", "ini":
		return []string{"*.cfg", "*.conf", "*.config", "*.ini"}
	case "cpp", "c++":
		return []string{"*.C", "*.cc", "*.cpp", "*.cxx", "*.c++", "*.h", "*.H", "*.hh", "*.hpp", "*.hxx", "*.inl", "*.ipp"}
	case "cs", "csharp":
		return []string{"*.cs", "*.csx"}
	case "css":
		return []string{"*.css", "*.scss", "*.sass", "*.less"}
	case "csv":
		return []string{"*.csv"}
	case "dart":
		return []string{"*.dart"}
	case "docker", "dockerfile":
		return []string{"*Dockerfile*", "*.dockerfile"}
	case "elixir", "ex":
		return []string{"*.eex", "*.ex", "*.exs", "*.heex"}
	case "erlang", "erl":
		return []string{"*.erl", "*.hrl"}
	case "fish":
		return []string{"*.fish"}
	case "go", "golang":
		return []string{"*.go"}
	case "gradle":
		return []string{"*.gradle", "*.gradle.kts"}
	case "graphql", "gql":
		return []string{"*.graphql", "*.graphqls", "*.gql"}
	case "h":
		return []string{"*.h", "*.hh", "*.hpp", "*.hxx"}
	case "haskell", "hs":
		return []string{"*.hs", "*.lhs", "*.hsc"}
	case "html":
		return []string{"*.htm", "*.html", "*.ejs"}
	case "java":
		return []string{"*.java", "*.jsp", "*.jspx", "*.properties"}
	case "js", "javascript":
		return []string{"*.js", "*.jsx", "*.mjs", "*.cjs", "*.vue"}
	case "json":
		return []string{"*.json", "composer.lock"}
	case "jsonl":
		return []string{"*.jsonl", "*.ndjson"}
	case "julia", "jl":
		return []string{"*.jl"}
	case "kotlin", "kt":
		return []string{"*.kt", "*.kts"}
	case "lua":
		return []string{"*.lua"}
	case "make", "makefile":
		return []string{"*.mak", "*.mk", "[Gg][Nn][Uu]makefile", "[Mm]akefile", "[Mm]akefile.am", "[Mm]akefile.in"}
	case "md", "markdown":
		return []string{"*.markdown", "*.md", "*.mdown", "*.mdx", "*.mkdn"}
	case "nix":
		return []string{"*.nix"}
	case "objc":
		return []string{"*.h", "*.m", "*.mm"}
	case "ocaml", "ml":
		return []string{"*.ml", "*.mli", "*.mll", "*.mly"}
	case "perl", "pl":
		return []string{"*.PL", "*.perl", "*.pl", "*.plh", "*.plx", "*.pm", "*.t"}
	case "php":
		return []string{"*.php", "*.php3", "*.php4", "*.php5", "*.phtml"}
	case "proto", "protobuf":
		return []string{"*.proto"}
	case "py", "python":
		return []string{"*.py", "*.pyi", "*.pyw"}
	case "r":
		return []string{"*.R", "*.Rmd", "*.Rnw", "*.r"}
	case "rst":
		return []string{"*.rst"}
	case "ruby", "rb":
		return []string{"*.gemspec", "*.rb", "*.rbw", "*.rake", ".irbrc", "Gemfile", "Rakefile", "config.ru"}
	case "rust", "rs":
		return []string{"*.rs"}
	case "scala":
		return []string{"*.sbt", "*.scala", "*.sc"}
	case "sh", "shell", "bash":
		return []string{"*.bash", "*.sh", "*.ksh", "*.zsh", ".bashrc", ".bash_profile", ".profile", ".zshrc", ".zprofile"}
	case "sql":
		return []string{"*.psql", "*.sql"}
	case "svelte":
		return []string{"*.svelte"}
	case "swift":
		return []string{"*.swift"}
	case "tex", "latex":
		return []string{"*.bib", "*.cls", "*.sty", "*.tex", "*.ltx"}
	case "tf", "terraform":
		return []string{"*.tf", "*.tfvars", "*.hcl"}
	case "toml":
		return []string{"*.toml", "Cargo.lock"}
	case "ts", "typescript":
		return []string{"*.ts", "*.tsx", "*.mts", "*.cts"}
	case "txt", "text":
		return []string{"*.txt"}
	case "vim":
		return []string{"*.vim", ".vimrc"}
	case "xml":
		return []string{"*.xml", "*.xsd", "*.xsl", "*.xslt", "*.dtd", "*.xhtml", "*.svg"}
	case "yaml", "yml":
		return []string{"*.yaml", "*.yml"}
	case "zig":
		return []string{"*.zig"}
	}
	return nil
}

// fileTypeNames lists the types grep knows, for an error message.
func fileTypeNames() string {
	names := []string{"asm", "bazel", "c", "clojure", "cmake", "config", "cpp", "cs", "css", "csv", "dart", "docker",
		"elixir", "erlang", "fish", "go", "gradle", "graphql", "h", "haskell", "html", "java", "js", "json", "jsonl",
		"julia", "kotlin", "lua", "make", "md", "nix", "objc", "ocaml", "perl", "php", "proto", "py", "r", "rst",
		"ruby", "rust", "scala", "sh", "sql", "svelte", "swift", "tex", "tf", "toml", "ts", "txt", "vim", "xml",
		"yaml", "zig"}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// matchesAny reports whether name matches one of the base-name globs.
func matchesAny(globs []string, name string) bool {
	for _, g := range globs {
		if doublestar.MatchUnvalidated(g, name) {
			return true
		}
	}
	return false
}
