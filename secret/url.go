package secret

import (
	"net/url"
	"regexp"
	"strings"
	"sync"
)

// URL hides the credentials a URL carries: a password (or a token-like user
// name) and the values of query parameters with secret names
// ("http://u:redacted@host/v1?api_key=redacted"). Anything that is not a URL
// with a host comes back as it is. It is the one function fawn shows or
// stores a URL through.
func URL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || u.Scheme == "" {
		return s
	}
	changed := false
	if u.User != nil {
		name := u.User.Username()
		if len(name) >= 12 || LooksSecret(name) {
			name = "redacted"
		}
		if _, ok := u.User.Password(); ok {
			u.User = url.UserPassword(name, "redacted")
		} else {
			u.User = url.User(name)
		}
		changed = true
	}
	if u.RawQuery != "" {
		q := u.Query()
		for k, vs := range q {
			// ${VAR} is a reference, not a secret: the user must see it.
			if (LooksSecret(k) || secretParam(k)) && !(len(vs) == 1 && strings.HasPrefix(vs[0], "$")) {
				q[k] = []string{"redacted"}
				changed = true
			}
		}
		if changed {
			u.RawQuery = q.Encode()
		}
	}
	if !changed {
		return s
	}
	return u.String()
}

// LooksSecret says whether a name (a configuration key's last part, a query
// parameter, a header) is one that holds a secret.
func LooksSecret(name string) bool {
	k := strings.ToLower(name)
	for _, w := range []string{"key", "token", "secret", "password", "authorization"} {
		if strings.Contains(k, w) && !strings.HasSuffix(k, "keys") {
			return true
		}
	}
	return false
}

// secretParam names query parameters that carry credentials without
// saying "key" or "token": signed URLs, OAuth codes.
func secretParam(name string) bool {
	switch strings.ToLower(name) {
	case "sig", "signature", "code", "auth", "apikey", "access_token", "x-amz-signature", "x-amz-credential", "x-goog-signature":
		return true
	}
	return false
}

var urlInText = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://[^\s"'<>\x60]+`) })

// URLs redacts every URL in a text (an error message, a log line) with URL.
func URLs(text string) string {
	if !strings.Contains(text, "://") {
		return text
	}
	return urlInText().ReplaceAllStringFunc(text, func(u string) string {
		trail := ""
		for len(u) > 0 && strings.ContainsRune(").,;:]}", rune(u[len(u)-1])) {
			trail = u[len(u)-1:] + trail
			u = u[:len(u)-1]
		}
		return URL(u) + trail
	})
}
