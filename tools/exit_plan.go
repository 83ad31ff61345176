package tools

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"
)

//go:embed exit_plan.md
var exitPlanDoc string

// ExitPlanName is the plan tool's name.
const ExitPlanName = "exit_plan"

// PlanApproved starts the result of an approved plan: the to-do list a
// conversation leaves (after a rewind) counts the plan's steps only then.
const PlanApproved = "The user approved the plan."

// maxPlan caps a plan's size: a plan is read by a person in a dialog.
const maxPlan = 64 << 10

// PlanVerdict is the user's answer to a plan.
type PlanVerdict struct {
	// Approved: the user approved the plan; Mode is the permission mode
	// fawn now runs in ("accept-edits" or "ask").
	Approved bool
	Mode     string
	// Note is what the user wants changed when the plan goes back.
	Note string
}

// PlanReview shows a plan to the user and returns their answer. The agent
// provides it: it knows the mode and how to ask. An error is the call's
// result for the model (outside plan mode, headless, cancelled).
type PlanReview func(ctx context.Context, plan string) (PlanVerdict, error)

// ExitPlan is the exit_plan tool: in plan mode the model ends its planning
// with it. The user approves the plan (and fawn leaves plan mode) or sends
// it back with a note; an approved plan's steps become the to-do list.
type ExitPlan struct {
	toolInfo
	env    *Env
	review PlanReview
}

// NewExitPlan returns the exit_plan tool working in env, asking review.
func NewExitPlan(env *Env, review PlanReview) *ExitPlan {
	env.ensureState()
	return &ExitPlan{env: env, review: review, toolInfo: toolInfo{
		name: ExitPlanName,
		desc: exitPlanDoc,
		params: map[string]*schema.ParameterInfo{
			"plan": {Type: schema.String, Required: true, Desc: "The plan in Markdown: the approach, then the steps as a numbered list."},
		},
	}}
}

type exitPlanArgs struct {
	Plan string `json:"plan"`
}

// ParsePlan is the plan of an exit_plan call with these arguments, or why
// the call is wrong.
func ParsePlan(argsJSON string) (string, error) {
	var a exitPlanArgs
	if err := decodeArgs(ExitPlanName, argsJSON, &a); err != nil {
		return "", err
	}
	plan := strings.TrimSpace(a.Plan)
	switch {
	case plan == "":
		return "", errors.New("exit_plan needs plan: the whole plan in Markdown, its steps as a numbered list")
	case len(plan) > maxPlan:
		return "", fmt.Errorf("the plan is %d KB; at most %d KB: keep to the steps", len(plan)>>10, maxPlan>>10)
	}
	return plan, nil
}

// Plan reads: presenting a plan changes nothing (the user's answer may
// change the mode, which is theirs to do).
func (t *ExitPlan) Plan(_ context.Context, argsJSON string) (Action, error) {
	plan, err := ParsePlan(argsJSON)
	if err != nil {
		return Action{}, err
	}
	return Action{Kind: KindRead, Summary: fmt.Sprintf("Plan (%s)", plural(len(PlanTodos(plan)), "step", "steps"))}, nil
}

// InvokableRun shows the plan and tells the model the answer; an approved
// plan's steps replace the to-do list.
func (t *ExitPlan) InvokableRun(ctx context.Context, argsJSON string, _ ...tool.Option) (string, error) {
	plan, err := ParsePlan(argsJSON)
	if err != nil {
		return "", err
	}
	v, err := t.review(ctx, plan)
	if err != nil {
		return "", err
	}
	if !v.Approved {
		out := "The user did not approve the plan and wants you to keep planning; fawn stays in plan mode."
		if note := strings.TrimSpace(v.Note); note != "" {
			out += " Their note: " + note
		}
		return out + "\nChange the plan as they ask (explore more if needed), then call exit_plan again with the whole new plan.", nil
	}
	steps := PlanTodos(plan)
	if len(steps) > 0 {
		t.env.Todos.Replace(steps)
		Emit(ctx, TodosChanged{Items: t.env.Todos.Items()})
	}
	how := "edits run without asking; commands still ask"
	if v.Mode != "accept-edits" {
		how = "edits and commands ask the user first"
	}
	out := fmt.Sprintf(PlanApproved+" fawn has left plan mode and is now in %s mode (%s). Carry out the plan now, in this turn, step by step.", v.Mode, how)
	if len(steps) > 0 {
		out += fmt.Sprintf(" Its %s are the to-do list (ids 1 to %d): mark each in_progress and completed with todo_write as you go.", plural(len(steps), "step", "steps"), len(steps))
	}
	return out, nil
}

// planItem is a top-level list item of a plan: "1. …", "1) …", "- …" or
// "* …" at the start of a line.
var planItem = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:\d{1,3}[.)]|[-*+])\s+(.+)$`) })

// PlanTodos is a plan's steps as pending to-dos: its top-level list items,
// in order (none when the plan has no list). An item's text loses its
// Markdown emphasis and is cut to one line.
func PlanTodos(plan string) []Todo {
	var out []Todo
	for _, line := range strings.Split(plan, "\n") {
		m := planItem().FindStringSubmatch(strings.TrimRight(line, "\r"))
		if m == nil {
			continue
		}
		title := strings.TrimSpace(strings.NewReplacer("**", "", "__", "", "`", "").Replace(m[1]))
		if title == "" {
			continue
		}
		if r := []rune(title); len(r) > 200 {
			title = string(r[:199]) + "…"
		}
		out = append(out, Todo{ID: strconv.Itoa(len(out) + 1), Title: title, Status: "pending"})
		if len(out) == maxTodos {
			break
		}
	}
	return out
}
