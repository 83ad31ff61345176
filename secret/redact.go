package secret

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Mark is what a secret is replaced with.
const Mark = "[redacted]"

// minValue is the shortest value a Redactor hides: a shorter one would
// redact ordinary words ("test", "1234").
const minValue = 8

// Redactor hides secrets in text: the values it was given (the keys fawn
// holds, as exact strings) and whatever looks like a credential, whoever
// it belongs to (an sk-… key, a Bearer token, an api_key=… pair, a URL's
// password). Everything fawn shows of a server's or a tool's error, and
// every error it stores, goes through one. A nil *Redactor hides only what
// looks like a credential.
type Redactor struct {
	values []string // longest first: a key that contains another is hidden whole
}

// NewRedactor returns a Redactor of values; empty and short ones (under 8
// bytes) are left out.
func NewRedactor(values ...string) *Redactor {
	r := &Redactor{}
	for _, v := range values {
		if len(v) >= minValue && !slices.Contains(r.values, v) {
			r.values = append(r.values, v)
		}
	}
	slices.SortStableFunc(r.values, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	return r
}

// Values are the secrets r hides by value, for stores that redact their own
// encoding of them (session.Options.Secrets).
func (r *Redactor) Values() []string {
	if r == nil {
		return nil
	}
	return slices.Clone(r.values)
}

// With returns a Redactor that hides r's values and more.
func (r *Redactor) With(values ...string) *Redactor {
	return NewRedactor(append(r.Values(), values...)...)
}

// patterns are the shapes of credentials, compiled on first use (not at
// start-up: most runs never show an error).
type patterns struct {
	// skKey is the shape of OpenAI's and Anthropic's keys and of the many
	// servers that copy them (sk-proj-…, sk-ant-api03-…, sk-or-v1-…).
	skKey *regexp.Regexp
	// googleKey is a Google API key (Gemini).
	googleKey *regexp.Regexp
	// authScheme is an Authorization header's value: "Bearer <token>".
	authScheme *regexp.Regexp
	// namedValue is a value under a secret-sounding name: api_key=…,
	// "x-api-key": "…", token: ….
	namedValue *regexp.Regexp
}

var credentials = sync.OnceValue(func() *patterns {
	return &patterns{
		skKey:      regexp.MustCompile(`\bsk-[A-Za-z0-9_-]{12,}`),
		googleKey:  regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{30,}`),
		authScheme: regexp.MustCompile(`(?i)\b(bearer|basic)(\s+)([A-Za-z0-9._~+/=-]{8,})`),
		namedValue: regexp.MustCompile(`(?i)([a-z_-]*(?:key|token|secret|password)["']?)(\s*[:=]\s*["']?)([^\s"',;&)}\]]{8,})`),
	}
})

// String returns s with every secret replaced by [redacted] (a URL's by
// "redacted", as URL does).
func (r *Redactor) String(s string) string {
	if r != nil {
		for _, v := range r.values {
			if strings.Contains(s, v) {
				s = strings.ReplaceAll(s, v, Mark)
			}
		}
	}
	s = URLs(s)
	p := credentials()
	s = p.skKey.ReplaceAllString(s, Mark)
	s = p.googleKey.ReplaceAllString(s, Mark)
	s = p.authScheme.ReplaceAllStringFunc(s, func(m string) string {
		g := p.authScheme.FindStringSubmatch(m)
		if !tokenLike(g[3]) {
			return m
		}
		return g[1] + g[2] + Mark
	})
	s = p.namedValue.ReplaceAllStringFunc(s, func(m string) string {
		g := p.namedValue.FindStringSubmatch(m)
		if !tokenLike(g[3]) || g[3] == Mark {
			return m
		}
		return g[1] + g[2] + Mark
	})
	return s
}

// tokenLike tells a credential from a word that follows "Bearer" or
// "token:" in prose ("Bearer authentication", "token: exceeded"): real
// tokens have a digit, or are long.
func tokenLike(s string) bool {
	return strings.ContainsAny(s, "0123456789") || len(s) >= 24
}

// Error returns err with its text redacted; errors.Is and errors.As still
// see err. An error with nothing to hide comes back as it is.
func (r *Redactor) Error(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	red := r.String(msg)
	if red == msg {
		return err
	}
	return &redacted{msg: red, err: err}
}

type redacted struct {
	msg string
	err error
}

func (e *redacted) Error() string { return e.msg }
func (e *redacted) Unwrap() error { return e.err }
