package provider

import (
	"regexp"
	"strings"
	"sync"

	"github.com/fawn-ide/fawn/config"
)

// visionNames are the model families that take images, for models.*.vision:
// auto. Compiled on first use: it is the largest of fawn's own start-up
// costs (GODEBUG=inittrace=1).
var visionNames = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(^|[/:])(gpt-4o|gpt-4\.1|gpt-4-turbo|gpt-5|o[134](-|$)|chatgpt-4o|claude|gemini|gemma-?3|llava|bakllava|pixtral|moondream|minicpm-v|llama-?3\.2-vision|llama-?4|grok-[0-9.]+-vision|grok-4)|vision|[-_.]vl([-_.:]|$)`)
})

// AcceptsImages says whether the model mc describes takes images:
// models.*.vision yes or no, or, when auto, Anthropic's models and the
// families known to (GPT-4o and later, Claude, Gemini, LLaVA, Qwen-VL…).
func AcceptsImages(mc config.Model) bool {
	switch strings.ToLower(mc.Vision) {
	case "yes", "true":
		return true
	case "no", "false":
		return false
	}
	switch {
	case mc.Type == "demo" || mc.Demo:
		return false
	case mc.Type == "anthropic":
		return true
	}
	return visionNames().MatchString(mc.Model)
}
