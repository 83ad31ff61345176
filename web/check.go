package web

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strings"
)

// ParseURL reads a URL the agent asked for and says what is wrong with it:
// only http and https, a host, and no user name or password (fawn sends
// no credentials anywhere, and one written into a URL is a key leaving in
// plain sight). A URL without a scheme gets https.
func ParseURL(raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, errors.New("the url is empty: give a full http(s) URL such as https://go.dev/doc/")
	}
	if !strings.Contains(raw, "://") {
		raw = "https://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%q is not a URL: %v", raw, errors.Unwrap(err))
	}
	if err := checkURL(u); err != nil {
		return nil, err
	}
	return u, nil
}

func checkURL(u *url.URL) error {
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
	default:
		return fmt.Errorf("%s: only http and https URLs are fetched, not %s:", u.Redacted(), u.Scheme)
	}
	if u.User != nil {
		return fmt.Errorf("%s: a URL with a user name or password is refused: fawn sends no credentials", u.Redacted())
	}
	if u.Hostname() == "" {
		return fmt.Errorf("%s: the URL has no host", u.Redacted())
	}
	return nil
}

// Host is the host part of u as permissions name it: lower case, no port,
// no brackets around an IPv6 address, no trailing dot.
func Host(u *url.URL) string {
	return strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
}

// nonPublic are address ranges that are not the public internet, beyond
// what netip's predicates cover.
var nonPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // "this network"
	netip.MustParsePrefix("100.64.0.0/10"),   // carrier-grade NAT
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, and broadcast
	netip.MustParsePrefix("64:ff9b::/96"),    // NAT64: an IPv4 address inside
	netip.MustParsePrefix("64:ff9b:1::/48"),  // local-use NAT64
	netip.MustParsePrefix("2001:db8::/32"),   // documentation
	netip.MustParsePrefix("fec0::/10"),       // site-local (deprecated)
	netip.MustParsePrefix("2002::/16"),       // 6to4: an IPv4 address inside
	netip.MustParsePrefix("100::/64"),        // discard-only
	netip.MustParsePrefix("2001::/32"),       // Teredo: an IPv4 address inside
	netip.MustParsePrefix("::ffff:0:0/96"),   // IPv4-mapped, checked unmapped below
	netip.MustParsePrefix("169.254.0.0/16"),  // link-local: cloud metadata lives here
	netip.MustParsePrefix("fe80::/10"),       // link-local
	netip.MustParsePrefix("fc00::/7"),        // unique local
	netip.MustParsePrefix("127.0.0.0/8"),     // loopback
	netip.MustParsePrefix("10.0.0.0/8"),      // private
	netip.MustParsePrefix("172.16.0.0/12"),   // private
	netip.MustParsePrefix("192.168.0.0/16"),  // private
	netip.MustParsePrefix("198.51.100.0/24"), // documentation
	netip.MustParsePrefix("203.0.113.0/24"),  // documentation
	netip.MustParsePrefix("192.0.2.0/24"),    // documentation
}

// Public reports whether ip is an address of the public internet: not
// loopback, private, link-local (169.254.169.254 is where clouds keep
// instance credentials), multicast, unspecified or reserved.
func Public(ip netip.Addr) bool {
	ip = ip.Unmap()
	if !ip.IsValid() || ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() {
		return false
	}
	for _, p := range nonPublic {
		if p.Contains(ip) {
			return false
		}
	}
	return true
}

// PrivateError is a fetch refused because the host resolved to an address
// that is not public and the user did not name the host.
type PrivateError struct {
	Host string
	Addr netip.Addr
}

func (e *PrivateError) Error() string {
	return fmt.Sprintf("%s is at %s, which is not a public internet address (loopback, private network, link-local or reserved): "+
		"web_fetch reaches such addresses only for hosts the user lists in web.fetch.allow_private of their config", e.Host, e.Addr)
}
