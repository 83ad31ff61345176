package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"
)

//go:embed todo_write.md
var todoWriteDoc string

const maxTodos = 100

// TodoWrite is the todo_write tool: it replaces the session's to-do list.
type TodoWrite struct {
	toolInfo
	env *Env
}

// NewTodoWrite returns the todo_write tool working in env.
func NewTodoWrite(env *Env) *TodoWrite {
	env.ensureState()
	item := &schema.ParameterInfo{Type: schema.Object, SubParams: map[string]*schema.ParameterInfo{
		"id":       {Type: schema.String, Required: true, Desc: "Stable identifier of the item, e.g. \"1\" or \"tests\"."},
		"title":    {Type: schema.String, Required: true, Desc: "What to do, as a short imperative sentence."},
		"status":   {Type: schema.String, Required: true, Enum: []string{"pending", "in_progress", "completed", "cancelled"}},
		"priority": {Type: schema.String, Enum: []string{"low", "medium", "high"}},
	}}
	return &TodoWrite{
		env: env,
		toolInfo: toolInfo{
			name: TodoWriteName,
			desc: todoWriteDoc,
			params: map[string]*schema.ParameterInfo{
				"todos": {Type: schema.Array, Required: true, ElemInfo: item, Desc: "The whole to-do list; it replaces the previous one."},
			},
		},
	}
}

type todoArgs struct {
	Todos *[]todoItem `json:"todos"`
}

type todoItem struct {
	ID       json.RawMessage `json:"id"`
	Title    string          `json:"title"`
	Content  string          `json:"content"`
	Status   string          `json:"status"`
	Priority string          `json:"priority"`
}

// TodoWriteName is the to-do tool's name.
const TodoWriteName = "todo_write"

// ParseTodos is the list a todo_write call with these arguments sets, or
// why the call changes nothing. A conversation's to-do list is the one its
// last todo_write call with good arguments set.
func ParseTodos(argsJSON string) ([]Todo, error) {
	return (&TodoWrite{toolInfo: toolInfo{name: TodoWriteName}}).parse(argsJSON)
}

// parse checks the list and returns it normalised.
func (t *TodoWrite) parse(argsJSON string) ([]Todo, error) {
	var a todoArgs
	if err := decodeArgs(t.name, argsJSON, &a); err != nil {
		return nil, err
	}
	if a.Todos == nil {
		return nil, errors.New(`todo_write needs todos: the whole list, e.g. [{"id": "1", "title": "Write the parser", "status": "in_progress"}] ([] clears it)`)
	}
	in := *a.Todos
	if len(in) > maxTodos {
		return nil, fmt.Errorf("%d items is too many for a to-do list (at most %d): group the small steps", len(in), maxTodos)
	}
	out := make([]Todo, 0, len(in))
	seen := map[string]int{}
	var problems []string
	for i, it := range in {
		n := i + 1
		id := todoID(it.ID)
		if id == "" {
			id = strconv.Itoa(n)
		}
		title := strings.TrimSpace(it.Title)
		if title == "" {
			title = strings.TrimSpace(it.Content)
		}
		if title == "" {
			problems = append(problems, fmt.Sprintf("item %d (id %q) has an empty title", n, id))
		}
		if first, dup := seen[id]; dup {
			problems = append(problems, fmt.Sprintf("items %d and %d have the same id %q", first, n, id))
		} else {
			seen[id] = n
		}
		status, ok := todoStatus(it.Status)
		if !ok {
			problems = append(problems, fmt.Sprintf("item %d (id %q) has unknown status %q: use pending, in_progress, completed or cancelled", n, id, it.Status))
		}
		prio := strings.ToLower(strings.TrimSpace(it.Priority))
		switch prio {
		case "", "low", "medium", "high":
		default:
			problems = append(problems, fmt.Sprintf("item %d (id %q) has unknown priority %q: use low, medium or high", n, id, it.Priority))
		}
		out = append(out, Todo{ID: id, Title: title, Status: status, Priority: prio})
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("the to-do list was not changed: %s", strings.Join(problems, "; "))
	}
	return out, nil
}

// todoID accepts a string or a number.
func todoID(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return strings.TrimSpace(s)
	}
	return strings.TrimSpace(string(raw))
}

// todoStatus normalises the spellings models use.
func todoStatus(s string) (string, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.NewReplacer("-", "_", " ", "_").Replace(s)
	switch s {
	case "", "pending", "todo", "open", "not_started":
		return "pending", true
	case "in_progress", "active", "doing", "started":
		return "in_progress", true
	case "completed", "done", "complete", "finished":
		return "completed", true
	case "cancelled", "canceled", "dropped", "skipped":
		return "cancelled", true
	}
	return s, false
}

// Plan summarises the new list; todo_write only touches session state.
func (t *TodoWrite) Plan(ctx context.Context, argsJSON string) (Action, error) {
	items, err := t.parse(argsJSON)
	if err != nil {
		return Action{}, err
	}
	return Action{Kind: KindRead, Summary: fmt.Sprintf("Update the to-do list (%s)", plural(len(items), "item", "items"))}, nil
}

// InvokableRun replaces the list.
func (t *TodoWrite) InvokableRun(ctx context.Context, argsJSON string, _ ...tool.Option) (string, error) {
	items, err := t.parse(argsJSON)
	if err != nil {
		return "", err
	}
	t.env.Todos.Replace(items)
	Emit(ctx, TodosChanged{Items: t.env.Todos.Items()})
	return todoSummary(items), nil
}

// todoSummary is "5 items: 2 completed, 1 in progress, 2 pending", with a
// warning when more than one item is in progress.
func todoSummary(items []Todo) string {
	if len(items) == 0 {
		return "The to-do list is now empty."
	}
	count := map[string]int{}
	var active []string
	for _, it := range items {
		count[it.Status]++
		if it.Status == "in_progress" {
			active = append(active, strconv.Quote(it.Title))
		}
	}
	var parts []string
	for _, s := range []struct{ key, label string }{
		{"completed", "completed"}, {"in_progress", "in progress"}, {"pending", "pending"}, {"cancelled", "cancelled"},
	} {
		if n := count[s.key]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, s.label))
		}
	}
	out := fmt.Sprintf("%s: %s.", plural(len(items), "item", "items"), strings.Join(parts, ", "))
	if len(active) > 1 {
		out += fmt.Sprintf("\nWarning: %d items are in progress (%s); keep one in progress at a time and finish it before starting the next.",
			len(active), strings.Join(active, ", "))
	}
	if count["pending"]+count["in_progress"] == 0 {
		out += "\nEverything is done."
	}
	return out
}
