package chat

import (
	"testing"
)

func TestMentionToken(t *testing.T) {
	if start, q, ok := mentionToken("fix @ui/cha", 11); !ok || start != 4 || q != "ui/cha" {
		t.Errorf("mentionToken = %d %q %v", start, q, ok)
	}
}
