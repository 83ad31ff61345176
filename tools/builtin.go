package tools

// Builtin returns fawn's own tools working in env, in the order the model
// sees them: text_editor, grep, glob, ls, tree, todo_write, web_fetch,
// web_search (reaching the web as env.Web says). (The bash tool
// needs a terminal and is built by its own constructor.) Session state that
// env lacks is created, so an Env literal with only Root works too.
func Builtin(env *Env) []Tool {
	env.ensureState()
	return []Tool{
		NewTextEditor(env),
		NewGrep(env),
		NewGlob(env),
		NewLs(env),
		NewTree(env),
		NewTodoWrite(env),
		NewWebFetch(env.Web.Fetch),
		NewWebSearch(env.Web.Search, env.Web.SearchProblem),
	}
}

// ensureState creates the session state an Env literal may lack, so every
// tool constructor accepts &Env{Root: root}.
func (e *Env) ensureState() {
	if e.Files == nil {
		e.Files = NewFileTracker()
	}
	if e.Todos == nil {
		e.Todos = &TodoStore{}
	}
	if e.Edits == nil {
		e.Edits = NewEditHistory()
	}
	if e.Web == nil {
		e.Web = &WebAccess{}
	}
}
