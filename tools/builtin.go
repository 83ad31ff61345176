package tools

// Builtin returns fawn's own tools working in env, in the order the model
// sees them: text_editor, grep, glob, ls, tree, todo_write. (The bash tool
// needs a terminal and is built by its own constructor.) Session state that
// env lacks is created, so an Env literal with only Root works too.
func Builtin(env *Env) []Tool {
	if env.Files == nil {
		env.Files = NewFileTracker()
	}
	if env.Todos == nil {
		env.Todos = &TodoStore{}
	}
	if env.Edits == nil {
		env.Edits = NewEditHistory()
	}
	return []Tool{
		NewTextEditor(env),
		NewGrep(env),
		NewGlob(env),
		NewLs(env),
		NewTree(env),
		NewTodoWrite(env),
	}
}
