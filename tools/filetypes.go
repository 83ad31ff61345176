package tools

import (
	"slices"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// fileType is a grep file type: its names (the first is the one listed)
// and the base-name globs of its files, as ripgrep names them.
type fileType struct {
	names, globs []string
}

// fileTypes is grep's table of file types (go, py, js, ts, rust, …).
func fileTypes() []fileType {
	return []fileType{
		{names: []string{"asm"}, globs: []string{"*.S", "*.asm", "*.s"}},
		{names: []string{"bazel"}, globs: []string{"*.BUILD", "*.bazel", "*.bazelrc", "*.bzl", "BUILD", "WORKSPACE"}},
		{names: []string{"c"}, globs: []string{"*.c", "*.h", "*.H"}},
		{names: []string{"clojure", "clj"}, globs: []string{"*.clj", "*.cljc", "*.cljs", "*.cljx", "*.edn"}},
		{names: []string{"cmake"}, globs: []string{"*.cmake", "CMakeLists.txt"}},
		{names: []string{"config", "ini"}, globs: []string{"*.cfg", "*.conf", "*.config", "*.ini"}},
		{names: []string{"cpp", "c++"}, globs: []string{"*.C", "*.cc", "*.cpp", "*.cxx", "*.c++", "*.h", "*.H", "*.hh", "*.hpp", "*.hxx", "*.inl", "*.ipp"}},
		{names: []string{"cs", "csharp"}, globs: []string{"*.cs", "*.csx"}},
		{names: []string{"css"}, globs: []string{"*.css", "*.scss", "*.sass", "*.less"}},
		{names: []string{"csv"}, globs: []string{"*.csv"}},
		{names: []string{"dart"}, globs: []string{"*.dart"}},
		{names: []string{"docker", "dockerfile"}, globs: []string{"*Dockerfile*", "*.dockerfile"}},
		{names: []string{"elixir", "ex"}, globs: []string{"*.eex", "*.ex", "*.exs", "*.heex"}},
		{names: []string{"erlang", "erl"}, globs: []string{"*.erl", "*.hrl"}},
		{names: []string{"fish"}, globs: []string{"*.fish"}},
		{names: []string{"go", "golang"}, globs: []string{"*.go"}},
		{names: []string{"gradle"}, globs: []string{"*.gradle", "*.gradle.kts"}},
		{names: []string{"graphql", "gql"}, globs: []string{"*.graphql", "*.graphqls", "*.gql"}},
		{names: []string{"h"}, globs: []string{"*.h", "*.hh", "*.hpp", "*.hxx"}},
		{names: []string{"haskell", "hs"}, globs: []string{"*.hs", "*.lhs", "*.hsc"}},
		{names: []string{"html"}, globs: []string{"*.htm", "*.html", "*.ejs"}},
		{names: []string{"java"}, globs: []string{"*.java", "*.jsp", "*.jspx", "*.properties"}},
		{names: []string{"js", "javascript"}, globs: []string{"*.js", "*.jsx", "*.mjs", "*.cjs", "*.vue"}},
		{names: []string{"json"}, globs: []string{"*.json", "composer.lock"}},
		{names: []string{"jsonl"}, globs: []string{"*.jsonl", "*.ndjson"}},
		{names: []string{"julia", "jl"}, globs: []string{"*.jl"}},
		{names: []string{"kotlin", "kt"}, globs: []string{"*.kt", "*.kts"}},
		{names: []string{"lua"}, globs: []string{"*.lua"}},
		{names: []string{"make", "makefile"}, globs: []string{"*.mak", "*.mk", "[Gg][Nn][Uu]makefile", "[Mm]akefile", "[Mm]akefile.am", "[Mm]akefile.in"}},
		{names: []string{"md", "markdown"}, globs: []string{"*.markdown", "*.md", "*.mdown", "*.mdx", "*.mkdn"}},
		{names: []string{"nix"}, globs: []string{"*.nix"}},
		{names: []string{"objc"}, globs: []string{"*.h", "*.m", "*.mm"}},
		{names: []string{"ocaml", "ml"}, globs: []string{"*.ml", "*.mli", "*.mll", "*.mly"}},
		{names: []string{"perl", "pl"}, globs: []string{"*.PL", "*.perl", "*.pl", "*.plh", "*.plx", "*.pm", "*.t"}},
		{names: []string{"php"}, globs: []string{"*.php", "*.php3", "*.php4", "*.php5", "*.phtml"}},
		{names: []string{"proto", "protobuf"}, globs: []string{"*.proto"}},
		{names: []string{"py", "python"}, globs: []string{"*.py", "*.pyi", "*.pyw"}},
		{names: []string{"r"}, globs: []string{"*.R", "*.Rmd", "*.Rnw", "*.r"}},
		{names: []string{"rst"}, globs: []string{"*.rst"}},
		{names: []string{"ruby", "rb"}, globs: []string{"*.gemspec", "*.rb", "*.rbw", "*.rake", ".irbrc", "Gemfile", "Rakefile", "config.ru"}},
		{names: []string{"rust", "rs"}, globs: []string{"*.rs"}},
		{names: []string{"scala"}, globs: []string{"*.sbt", "*.scala", "*.sc"}},
		{names: []string{"sh", "shell", "bash"}, globs: []string{"*.bash", "*.sh", "*.ksh", "*.zsh", ".bashrc", ".bash_profile", ".profile", ".zshrc", ".zprofile"}},
		{names: []string{"sql"}, globs: []string{"*.psql", "*.sql"}},
		{names: []string{"svelte"}, globs: []string{"*.svelte"}},
		{names: []string{"swift"}, globs: []string{"*.swift"}},
		{names: []string{"tex", "latex"}, globs: []string{"*.bib", "*.cls", "*.sty", "*.tex", "*.ltx"}},
		{names: []string{"tf", "terraform"}, globs: []string{"*.tf", "*.tfvars", "*.hcl"}},
		{names: []string{"toml"}, globs: []string{"*.toml", "Cargo.lock"}},
		{names: []string{"ts", "typescript"}, globs: []string{"*.ts", "*.tsx", "*.mts", "*.cts"}},
		{names: []string{"txt", "text"}, globs: []string{"*.txt"}},
		{names: []string{"vim"}, globs: []string{"*.vim", ".vimrc"}},
		{names: []string{"xml"}, globs: []string{"*.xml", "*.xsd", "*.xsl", "*.xslt", "*.dtd", "*.xhtml", "*.svg"}},
		{names: []string{"yaml", "yml"}, globs: []string{"*.yaml", "*.yml"}},
		{names: []string{"zig"}, globs: []string{"*.zig"}},
	}
}

// fileTypeGlobs returns the base-name globs of a grep file type, named as
// ripgrep names them, or nil for an unknown type.
func fileTypeGlobs(name string) []string {
	name = strings.ToLower(strings.TrimPrefix(name, "."))
	for _, ft := range fileTypes() {
		if slices.Contains(ft.names, name) {
			return ft.globs
		}
	}
	return nil
}

// fileTypeNames lists the types grep knows, for an error message.
func fileTypeNames() string {
	var names []string
	for _, ft := range fileTypes() {
		names = append(names, ft.names[0])
	}
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
