package util

import (
	"regexp"
	"sync"
)

// LazyRegexp is a regular expression compiled on its first use. goldmark's
// package variables compiled eighteen of them while a program started,
// whether it rendered Markdown or not. [fawn]
type LazyRegexp struct {
	once sync.Once
	expr string
	re   *regexp.Regexp
}

// MustCompileLazy returns expr, to be compiled (with regexp.MustCompile)
// on first use. [fawn]
func MustCompileLazy(expr string) *LazyRegexp { return &LazyRegexp{expr: expr} }

// Regexp is the compiled expression.
func (l *LazyRegexp) Regexp() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.expr) })
	return l.re
}

// Match is regexp.Regexp.Match.
func (l *LazyRegexp) Match(b []byte) bool { return l.Regexp().Match(b) }

// FindSubmatchIndex is regexp.Regexp.FindSubmatchIndex.
func (l *LazyRegexp) FindSubmatchIndex(b []byte) []int { return l.Regexp().FindSubmatchIndex(b) }
