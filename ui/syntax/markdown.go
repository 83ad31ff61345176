package syntax

import (
	"strings"

	. "github.com/alecthomas/chroma/v2" //nolint:revive // chroma's rule tables read as its own
)

func markdownLexer() Lexer {
	return &frontMatterLexer{Lexer: MustNewLexer(new(markdownConfig), markdownRules)}
}

// frontMatterLexer lexes a leading YAML front matter block as YAML and the
// rest as Markdown.
type frontMatterLexer struct {
	Lexer
	reg *LexerRegistry
}

func (m *frontMatterLexer) SetRegistry(reg *LexerRegistry) Lexer {
	m.reg = reg
	m.Lexer.SetRegistry(reg)
	return m
}

func (m *frontMatterLexer) Tokenise(options *TokeniseOptions, text string) (Iterator, error) {
	frontmatter, rest, ok := splitFrontmatter(text)
	if !ok || m.reg == nil {
		return m.Lexer.Tokenise(options, text)
	}
	yamlLexer := m.reg.Get("YAML")
	if yamlLexer == nil {
		return m.Lexer.Tokenise(options, text)
	}
	yamlTokens, err := yamlLexer.Tokenise(options, frontmatter)
	if err != nil {
		return nil, err
	}
	markdownTokens, err := m.Lexer.Tokenise(options, rest)
	if err != nil {
		return nil, err
	}
	return Concaterator(yamlTokens, markdownTokens), nil
}

// Extracts a leading YAML frontmatter block if the document starts with one.
func splitFrontmatter(text string) (frontmatter string, rest string, ok bool) {
	if !strings.HasPrefix(text, "---\n") && !strings.HasPrefix(text, "---\r\n") {
		return "", text, false
	}

	lineEnd := strings.IndexByte(text, '\n')
	if lineEnd < 0 {
		return "", text, false
	}
	if strings.TrimSuffix(text[:lineEnd], "\r") != "---" {
		return "", text, false
	}

	for pos := lineEnd + 1; pos < len(text); {
		next := strings.IndexByte(text[pos:], '\n')
		if next < 0 {
			break
		}
		lineEnd = pos + next
		line := strings.TrimSuffix(text[pos:lineEnd], "\r")
		if line == "---" {
			return text[:lineEnd+1], text[lineEnd+1:], true
		}
		pos = lineEnd + 1
	}
	return "", text, false
}

func markdownRules() Rules {
	return Rules{
		"root": {
			rule(`<!--[\w\W]*?-->`, CommentMultiline, nil),
			rule(`^(#[^#].+\n)`, ByGroups(GenericHeading), nil),
			rule(`^(#{2,6}.+\n)`, ByGroups(GenericSubheading), nil),
			rule(`^(\s*)([*-] )(\[[ xX]\])( .+\n)`, ByGroups(Text, Keyword, Keyword, UsingSelf("inline")), nil),
			rule(`^(\s*)([*-])(\s)(.+\n)`, ByGroups(Text, Keyword, Text, UsingSelf("inline")), nil),
			rule(`^(\s*)([0-9]+\.)( .+\n)`, ByGroups(Text, Keyword, UsingSelf("inline")), nil),
			rule(`^(\s*>\s)(.+\n)`, ByGroups(Keyword, GenericEmph), nil),
			rule("^(```\\n)([\\w\\W]*?)(^```$)", ByGroups(String, Text, String), nil),
			rule("^(```)(\\w+)(\\n)([\\w\\W]*?)(^```$)", UsingByGroup(2, 4, String, String, String, Text, String), nil),
			Include("inline"),
		},
		"inline": {
			rule(`<!--[\w\W]*?-->`, CommentMultiline, nil),
			rule(`\\.`, Text, nil),
			rule(`(\s)(\*|_)((?:(?!\2).)*)(\2)((?=\W|\n))`, ByGroups(Text, GenericEmph, GenericEmph, GenericEmph, Text), nil),
			rule(`(\s)((\*\*|__).*?)\3((?=\W|\n))`, ByGroups(Text, GenericStrong, GenericStrong, Text), nil),
			rule(`(\s)(~~[^~]+~~)((?=\W|\n))`, ByGroups(Text, GenericDeleted, Text), nil),
			rule("`[^`]+`", LiteralStringBacktick, nil),
			rule(`[@#][\w/:]+`, NameEntity, nil),
			rule(`(!?\[)([^]]+)(\])(\()([^)]+)(\))`, ByGroups(Text, NameTag, Text, Text, NameAttribute, Text), nil),
			rule(`.|\n`, Text, nil),
		},
	}
}
