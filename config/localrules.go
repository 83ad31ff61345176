package config

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/fawn-ide/fawn/trust"
)

// LocalRulesFile is where the rules the user gave from the permission
// dialog ("always") are kept for a project: in the user's data directory,
// never in the project (a repository could otherwise ship its own), read
// as the user's own config, after the user's config.yaml.
func LocalRulesFile(dataDir, project string) string {
	if dataDir == "" || project == "" {
		return ""
	}
	abs, err := filepath.Abs(project)
	if err != nil {
		abs = project
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(dataDir, "projects", filepath.Base(abs)+"-"+hex.EncodeToString(sum[:6]), "config.yaml")
}

// localRules is the file's shape.
type localRules struct {
	Permissions struct {
		Allow []string `yaml:"allow,omitempty"`
		Ask   []string `yaml:"ask,omitempty"`
		Deny  []string `yaml:"deny,omitempty"`
	} `yaml:"permissions"`
}

func (lr *localRules) list(effect string) *[]string {
	switch effect {
	case "allow":
		return &lr.Permissions.Allow
	case "ask":
		return &lr.Permissions.Ask
	case "deny":
		return &lr.Permissions.Deny
	}
	return nil
}

func readLocal(path string) (*localRules, error) {
	lr := &localRules{}
	b, err := trust.ReadFile(path, MaxFileSize)
	if errors.Is(err, os.ErrNotExist) {
		return lr, nil
	}
	if err != nil {
		return nil, err
	}
	if err := yaml.Unmarshal(b, lr); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return lr, nil
}

func writeLocal(path string, lr *localRules) error {
	b, err := yaml.Marshal(lr)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	head := []byte("# Rules given in fawn's permission dialog for this project (fawn writes this file).\n")
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(head, b...), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// SaveLocalRule adds rule to effect's list (allow, ask, deny) of the file.
func SaveLocalRule(path, effect, rule string) error {
	lr, err := readLocal(path)
	if err != nil {
		return err
	}
	l := lr.list(effect)
	if l == nil {
		return fmt.Errorf("%q is not allow, ask or deny", effect)
	}
	if !slices.Contains(*l, rule) {
		*l = append(*l, rule)
	}
	return writeLocal(path, lr)
}

// RemoveLocalRule takes rule out of effect's list; it reports whether the
// file had it.
func RemoveLocalRule(path, effect, rule string) (bool, error) {
	lr, err := readLocal(path)
	if err != nil {
		return false, err
	}
	l := lr.list(effect)
	if l == nil || !slices.Contains(*l, rule) {
		return false, nil
	}
	*l = slices.DeleteFunc(*l, func(r string) bool { return r == rule })
	return true, writeLocal(path, lr)
}
