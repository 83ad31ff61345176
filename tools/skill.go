package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"

	"github.com/fawn-ide/fawn/skills"
)

// Skill is the skill tool: it loads a skill's instructions (and lists its
// files) when the model decides the skill applies. The system prompt names
// the skills and says what each is for.
type Skill struct {
	toolInfo
	skills []skills.Skill
}

// NewSkill returns the skill tool over ss.
func NewSkill(ss []skills.Skill) *Skill {
	names := make([]string, 0, len(ss))
	for _, s := range ss {
		if s.Err == nil {
			names = append(names, s.Name)
		}
	}
	return &Skill{skills: ss, toolInfo: toolInfo{
		name: "skill",
		desc: "Load a skill: instructions for a kind of task, written for this project or by the user. The system prompt lists the skills and what each is for; load one when the task at hand is what it describes, then follow it.",
		params: map[string]*schema.ParameterInfo{
			"name": {Type: schema.String, Required: true, Enum: names, Desc: "The skill's name, as the system prompt lists it."},
		},
	}}
}

type skillArgs struct {
	Name string `json:"name"`
}

func (t *Skill) find(argsJSON string) (skills.Skill, error) {
	var a skillArgs
	if err := decodeArgs(t.name, argsJSON, &a); err != nil {
		return skills.Skill{}, err
	}
	var names []string
	for _, s := range t.skills {
		if s.Name == a.Name {
			return s, nil
		}
		names = append(names, s.Name)
	}
	return skills.Skill{}, fmt.Errorf("no skill is named %q; the skills are: %s", a.Name, strings.Join(names, ", "))
}

// Plan reads: loading a skill changes nothing.
func (t *Skill) Plan(ctx context.Context, argsJSON string) (Action, error) {
	s, err := t.find(argsJSON)
	if err != nil {
		return Action{}, err
	}
	return Action{Kind: KindRead, Summary: "Load the skill " + s.Name}, nil
}

// InvokableRun returns the skill's instructions and its files.
func (t *Skill) InvokableRun(ctx context.Context, argsJSON string, _ ...tool.Option) (string, error) {
	s, err := t.find(argsJSON)
	if err != nil {
		return "", err
	}
	return s.Body()
}
