// Package config owns fawn's configuration: built-in defaults, the user's and
// the project's YAML files, --config, environment variables and flags, layered
// in that order with viper; ${VAR} expansion in every string; validation that
// names the file, the key and the bad value; and a printable, redacted view
// that says where each value came from.
//
// It imports hooks, rules, sandbox, secret and trust; agent, agent/provider,
// mcp, pricing, ui and cmd/fawn import it.
package config
