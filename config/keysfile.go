package config

import (
	"errors"
	"os"
	"path/filepath"

	"go.yaml.in/yaml/v3"

	"github.com/fawn-ide/fawn/trust"
)

// The user's key bindings: keys.yaml beside config.yaml (action: key or
// [keys]), under the keys: (or ui.keys:) section of the user's config,
// which wins action by action. Both are the user's own files; a project's
// file never rebinds a key (projectValue refuses ui.keys there).

// KeysFile is the user's keymap file in configDir.
func KeysFile(configDir string) string { return filepath.Join(configDir, "keys.yaml") }

// readKeysFile reads keys.yaml into ui.keys, remembering each action's line.
func (l *loader) readKeysFile(path string) {
	data, err := trust.ReadFile(path, MaxFileSize)
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			msg := err.Error()
			var fe *trust.FileError
			if errors.As(err, &fe) {
				msg = "this file " + fe.Reason
			}
			l.errorf(Problem{File: path, Msg: msg})
		}
		return
	}
	l.rep.Files = append(l.rep.Files, path)
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		l.errorf(Problem{File: path, Msg: "not valid YAML: " + err.Error()})
		return
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return
	}
	root, err := resolve(doc.Content[0])
	if err != nil {
		l.errorf(Problem{File: path, Msg: err.Error()})
		return
	}
	if root.Kind != yaml.MappingNode {
		l.errorf(Problem{File: path, Line: root.Line, Msg: "the top level must be a mapping of action names to keys (editor.save: [ctrl+s])"})
		return
	}
	l.keyLines(path, root)
	var v any
	if err := root.Decode(&v); err != nil {
		l.errorf(Problem{File: path, Line: root.Line, Msg: err.Error()})
		return
	}
	l.set("ui.keys", v, Source{Layer: "file", File: path, Line: root.Line})
}

// keyLines remembers where each action of a ui.keys mapping was bound.
func (l *loader) keyLines(path string, m *yaml.Node) {
	if m.Kind != yaml.MappingNode {
		return
	}
	if l.keySources == nil {
		l.keySources = map[string]Source{}
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		l.keySources[m.Content[i].Value] = Source{Layer: "file", File: path, Line: m.Content[i].Line}
	}
}
