package commands

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/secret"
	"github.com/fawn-ide/fawn/ui/picker"
	"github.com/fawn-ide/fawn/ui/render"
)

// Model is /model: a picker of the configured and listed models, or a
// switch to the one named. Without the Models service it says how to
// change the model in the configuration.
func Model() Command {
	return Command{Name: "model", Args: "[name]", Help: "Switch the model (a picker of the configured and listed models)", Run: func(h Host, args string) {
		sw := h.Services().Models
		if sw == nil {
			where := "the config file"
			if dir := h.Config().ConfigDir; dir != "" {
				where = filepath.Join(dir, "config.yaml")
			}
			h.Info(fmt.Sprintf(
				"model: %s. To change it, set models.chat_model (type, model, base_url, api_key) in %s or pass --model, then restart fawn.",
				h.Agent().ModelName(), where))
			return
		}
		if args == "" {
			pickModel(h, sw)
			return
		}
		for _, c := range sw.ConfiguredModels() {
			if c.Name == args {
				switchModel(h, sw, c)
				return
			}
		}
		// Not a configured name: a model of the server in use.
		mc := sw.ModelConfig()
		mc.Model = args
		switchModel(h, sw, agent.ModelChoice{Name: args, Config: mc, Source: "the server in use"})
	}}
}

// modelLabel is how the picker names a choice: its configured name, or the
// model's id for the default model and listed ones.
func modelLabel(c agent.ModelChoice) string {
	if c.Name == "default" || strings.HasPrefix(c.Source, "listed") {
		return render.Clean(c.Config.Model)
	}
	return render.Clean(c.Name)
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
		if mc.Model != "" && modelLabel(c) != render.Clean(mc.Model) {
			detail += "/" + render.Clean(mc.Model)
		}
		switch {
		case strings.HasPrefix(c.Source, "listed"):
			detail += " · " + render.Clean(c.Source)
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
	return render.Clean(host)
}

// pickModel shows the configured models at once and adds what their
// servers list as it arrives.
func pickModel(h Host, sw backend.ModelSwitcher) {
	configured := sw.ConfiguredModels()
	p := h.Pick("Model", modelItems(configured, sw.ModelConfig()), func(it picker.Item) {
		switchModel(h, sw, it.Value.(agent.ModelChoice))
	})
	p.SetLoading(true)
	ctx, cancel := context.WithTimeout(h.Context(), 15*time.Second)
	h.Go(func() {
		defer cancel()
		listed, errs := sw.ListModels(ctx)
		h.Post(func() {
			p.SetItems(modelItems(append(configured, listed...), sw.ModelConfig()))
			p.SetLoading(false)
			if len(errs) > 0 {
				var msgs []string
				for _, e := range errs {
					msgs = append(msgs, render.Clean(e.Error()))
				}
				p.SetNote("not listed: " + strings.Join(msgs, "; "))
			}
		})
	})
}

// switchModel switches to c from the next request and says so.
func switchModel(h Host, sw backend.ModelSwitcher, c agent.ModelChoice) {
	ctx := h.Context()
	h.Go(func() {
		err := sw.SetModel(ctx, c.Config)
		h.Post(func() {
			if err != nil {
				h.Error("could not switch the model: " + err.Error() + " — the model in use stays")
				return
			}
			name := h.Agent().ModelName()
			h.Info(fmt.Sprintf("model: %s (%s) — from the next request", name, render.Clean(c.Source)))
			h.Flash("model: " + name)
		})
	})
}
