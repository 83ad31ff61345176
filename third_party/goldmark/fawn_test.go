package goldmark_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
)

// TestLazyPatternsRenderAsUpstream: a document that needs every pattern
// the patch compiles on first use (linkify's URL, www. and e-mail links,
// table alignments, task lists, the seven kinds of HTML block, inline raw
// HTML) renders byte for byte as goldmark v1.8.7 unpatched renders it
// (testdata/fawn.html was written by the release). [fawn]
func TestLazyPatternsRenderAsUpstream(t *testing.T) {
	src, err := os.ReadFile("testdata/fawn.md")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/fawn.html")
	if err != nil {
		t.Fatal(err)
	}
	md := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe()))
	for range 2 { // the first render compiles the patterns, the second uses them
		var out bytes.Buffer
		if err := md.Convert(src, &out); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), want) {
			t.Fatalf("rendered\n%s\nthe release renders\n%s", out.Bytes(), want)
		}
	}
}
