// Package web owns what fawn fetches from the web for the agent: one page
// read over http(s) and turned into Markdown ([Client.Fetch]), and a search
// through the backend the user configured ([Searcher]: SearXNG's JSON API
// or the Brave Search API).
//
// A fetch is bounded (a time limit, a cap on the bytes read, a few
// redirects on the same host; a redirect to another host is returned, not
// followed, so the caller asks the user again), sends nothing of fawn's (no
// cookies, no authorization header, no proxy from the environment, and a
// URL with a user name or password is refused), and reaches only public
// addresses unless the user named the host ([Client.AllowPrivate]): the
// check is made on the address actually dialled, so a name that resolves
// to 127.0.0.1 or to a cloud metadata address is refused too.
//
// HTML becomes Markdown with github.com/JohannesKaufmann/html-to-markdown:
// scripts, styles, navigation, forms and page chrome are dropped, and the
// page's <main> (or its only <article>) is kept when it has one.
//
// It imports nothing of fawn; tools and cmd/fawn import it.
package web
