package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/secret"
	"github.com/fawn-ide/fawn/ui/commands"
	"github.com/fawn-ide/fawn/ui/picker"
	"github.com/fawn-ide/fawn/ui/services"
)

// addModelCommands registers /model.
func (a *App) addModelCommands() {
	a.commands.Add(commands.Command{Name: "model", Args: "[name]", Help: "Switch the model (a picker of the configured and listed models)", Run: func(_ commands.Host, args string) {
		sw := a.opts.Services.Models
		if sw == nil {
			where := "the config file"
			if a.cfg.ConfigDir != "" {
				where = filepath.Join(a.cfg.ConfigDir, "config.yaml")
			}
			a.list.Append(&noticeItem{kind: noticeInfo, text: fmt.Sprintf(
				"model: %s. To change it, set models.chat_model (type, model, base_url, api_key) in %s or pass --model, then restart fawn.",
				a.opts.Agent.ModelName(), where)})
			return
		}
		if args == "" {
			a.pickModel(sw)
			return
		}
		for _, c := range sw.ConfiguredModels() {
			if c.Name == args {
				a.switchModel(sw, c)
				return
			}
		}
		// Not a configured name: a model of the server in use.
		mc := sw.ModelConfig()
		mc.Model = args
		a.switchModel(sw, agent.ModelChoice{Name: args, Config: mc, Source: "the server in use"})
	}})
}

// modelLabel is how the picker names a choice: its configured name, or the
// model's id for the default model and listed ones.
func modelLabel(c agent.ModelChoice) string {
	if c.Name == "default" || strings.HasPrefix(c.Source, "listed") {
		return clean(c.Config.Model)
	}
	return clean(c.Name)
}

func modelItems(choices []agent.ModelChoice, cur config.Model) []picker.Item {
	var items []picker.Item
	for _, c := range choices {
		mc := c.Config
		typ := mc.Type
		if typ == "" {
			typ = "openai"
		}
		detail := typ
		if mc.Model != "" && modelLabel(c) != clean(mc.Model) {
			detail += "/" + clean(mc.Model)
		}
		switch {
		case strings.HasPrefix(c.Source, "listed"):
			detail += " · " + clean(c.Source)
		case c.Name == "default":
			detail += " · " + hostLabel(mc) + " · the default"
		default:
			detail += " · " + hostLabel(mc)
		}
		items = append(items, picker.Item{
			Label:   modelLabel(c),
			Detail:  detail,
			Current: mc.Type == cur.Type && mc.Model == cur.Model && mc.BaseURL == cur.BaseURL,
			Value:   c,
		})
	}
	return items
}

// hostLabel is where a model's requests go, so the user sees where the key
// and the code are sent before choosing it.
func hostLabel(mc config.Model) string {
	switch {
	case mc.Type == "demo" || mc.Demo:
		return "offline"
	case mc.BaseURL == "" && mc.Type == "anthropic":
		return "api.anthropic.com"
	}
	host := secret.URL(mc.BaseURL) // a user:password@ in it stays off the screen
	if i := strings.Index(host, "://"); i >= 0 {
		host = host[i+3:]
	}
	host, _, _ = strings.Cut(host, "/")
	return clean(host)
}

// pickModel shows the configured models at once and adds what their
// servers list as it arrives.
func (a *App) pickModel(sw services.ModelSwitcher) {
	configured := sw.ConfiguredModels()
	p := picker.New(&a.th, "Model", modelItems(configured, sw.ModelConfig()))
	p.SetLoading(true)
	p.OnPick = func(it picker.Item) { a.switchModel(sw, it.Value.(agent.ModelChoice)) }
	a.openPicker(p)
	ctx, cancel := context.WithTimeout(a.runCtx, 15*time.Second)
	a.Go(func() {
		defer cancel()
		listed, errs := sw.ListModels(ctx)
		a.post(func() {
			p.SetItems(modelItems(append(configured, listed...), sw.ModelConfig()))
			p.SetLoading(false)
			if len(errs) > 0 {
				var msgs []string
				for _, e := range errs {
					msgs = append(msgs, clean(e.Error()))
				}
				p.SetNote("not listed: " + strings.Join(msgs, "; "))
			}
		})
	})
}

// switchModel switches to c from the next request and says so.
func (a *App) switchModel(sw services.ModelSwitcher, c agent.ModelChoice) {
	ctx := a.runCtx
	a.Go(func() {
		err := sw.SetModel(ctx, c.Config)
		a.post(func() {
			if err != nil {
				a.list.Append(&noticeItem{kind: noticeError, text: "could not switch the model: " + err.Error() + " — the model in use stays"})
				return
			}
			name := a.opts.Agent.ModelName()
			a.list.Append(&noticeItem{kind: noticeInfo, text: fmt.Sprintf("model: %s (%s) — from the next request", name, clean(c.Source))})
			a.flash("model: " + name)
		})
	})
}

// contextWindow is the size of the model in use's context, for the status bar.
func (a *App) contextWindow() int {
	if cx := a.opts.Services.Context; cx != nil {
		n, _ := cx.ContextWindow()
		return n
	}
	if sw := a.opts.Services.Models; sw != nil {
		if n := sw.ModelConfig().ContextWindow; n > 0 {
			return n
		}
	}
	return a.cfg.Models.Chat.ContextWindow
}
