package web

import (
	"bytes"
	"context"
	"net/url"
	"strings"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/strikethrough"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// dropped are the elements that are never content: code that runs, page
// chrome, and what only works in a browser.
var dropped = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Nav: true, atom.Aside: true, atom.Footer: true, atom.Form: true,
	atom.Button: true, atom.Select: true, atom.Dialog: true, atom.Svg: true,
	atom.Iframe: true, atom.Object: true, atom.Embed: true, atom.Canvas: true,
	atom.Link: true, atom.Meta: true, atom.Head: true,
}

// droppedRoles are ARIA roles of page chrome.
var droppedRoles = map[string]bool{"navigation": true, "banner": true, "contentinfo": true, "search": true, "complementary": true, "menu": true, "menubar": true, "dialog": true}

// ToMarkdown turns an HTML document into its title and Markdown, links
// made absolute against baseURL. Scripts, styles, navigation, forms and the
// page's header and footer are dropped; a page with a <main> (or a single
// <article>) keeps only that.
func ToMarkdown(ctx context.Context, doc []byte, baseURL *url.URL) (title, md string, err error) {
	root, err := html.Parse(bytes.NewReader(doc))
	if err != nil {
		return "", "", err
	}
	title = strings.Join(strings.Fields(textOf(find(root, atom.Title))), " ")
	prune(root, false)
	content := find(root, atom.Main)
	if content == nil {
		if arts := findAll(root, atom.Article); len(arts) == 1 {
			content = arts[0]
		}
	}
	if content == nil {
		if content = find(root, atom.Body); content == nil {
			content = root
		}
	}
	conv := converter.NewConverter(converter.WithPlugins(
		base.NewBasePlugin(), commonmark.NewCommonmarkPlugin(), table.NewTablePlugin(), strikethrough.NewStrikethroughPlugin(),
	))
	opts := []converter.ConvertOptionFunc{converter.WithContext(ctx)}
	if baseURL != nil {
		opts = append(opts, converter.WithDomain(baseURL.String()))
	}
	out, err := conv.ConvertNode(content, opts...)
	if err != nil {
		return title, "", err
	}
	return title, strings.TrimSpace(string(out)), nil
}

// prune removes the dropped elements under n; inContent says n is inside
// a <main> or an <article>, where a <header> is the content's own.
func prune(n *html.Node, inContent bool) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.CommentNode {
			n.RemoveChild(c)
		} else if c.Type == html.ElementNode {
			if dropped[c.DataAtom] || (c.DataAtom == atom.Header && !inContent) || droppedRoles[attr(c, "role")] || attr(c, "aria-hidden") == "true" || hasAttr(c, "hidden") {
				n.RemoveChild(c)
			} else {
				prune(c, inContent || c.DataAtom == atom.Main || c.DataAtom == atom.Article)
			}
		}
		c = next
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return strings.ToLower(strings.TrimSpace(a.Val))
		}
	}
	return ""
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}

func find(n *html.Node, a atom.Atom) *html.Node {
	if n == nil {
		return nil
	}
	if n.Type == html.ElementNode && n.DataAtom == a {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := find(c, a); f != nil {
			return f
		}
	}
	return nil
}

func findAll(n *html.Node, a atom.Atom) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.DataAtom == a {
			out = append(out, n)
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

func textOf(n *html.Node) string {
	if n == nil {
		return ""
	}
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}
