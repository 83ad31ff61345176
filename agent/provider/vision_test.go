package provider

import (
	"testing"

	"github.com/fawn-ide/fawn/config"
)

func TestAcceptsImagesByName(t *testing.T) {
	for model, want := range map[string]bool{
		"gpt-4o": true, "gpt-4o-mini": true, "gpt-4.1": true, "o3": true, "o4-mini": true, "gpt-5": true,
		"anthropic/claude-sonnet-4.5": true, "gemini-2.5-pro": true, "llava:13b": true, "qwen2.5-vl-7b": true,
		"Qwen/Qwen2.5-VL-32B-Instruct": true, "llama3.2-vision": true,
		"gpt-3.5-turbo": false, "qwen2.5-coder": false, "deepseek-chat": false, "llmtest": false, "codellama": false,
	} {
		if got := AcceptsImages(config.Model{Type: "openai", Model: model}); got != want {
			t.Errorf("%s: AcceptsImages = %v", model, got)
		}
	}
	for _, c := range []struct {
		mc   config.Model
		want bool
	}{
		{config.Model{Type: "openai", Model: "qwen2.5-coder", Vision: "yes"}, true},
		{config.Model{Type: "anthropic", Model: "claude-x", Vision: "no"}, false},
		{config.Model{Type: "anthropic", Model: "any-name"}, true},
		{config.Model{Type: "demo", Model: "gpt-4o"}, false},
		{config.Model{Model: "gpt-4o", Demo: true}, false},
	} {
		if got := AcceptsImages(c.mc); got != c.want {
			t.Errorf("%+v: AcceptsImages = %v, want %v", c.mc, got, c.want)
		}
	}
}
