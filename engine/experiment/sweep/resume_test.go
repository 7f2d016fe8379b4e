package sweep

import (
	"context"
	"strings"
	"testing"
)

// TestResumeRefusesOtherCode: units kept by other code are not resumed.
func TestResumeRefusesOtherCode(t *testing.T) {
	defer func(v func() string) { codeVersion = v }(codeVersion)
	ctx := context.Background()
	dir := t.TempDir()
	s := &Spec{Name: "v", Games: []string{"ticTacToe"}, Seeds: 1, Players: []PlayerSpec{{Kind: "random"}, {Kind: "legal"}}}
	codeVersion = func() string { return "old" }
	if _, err := Run(ctx, s, Options{Runner: RunnerLocal, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(ctx, s, Options{Runner: RunnerLocal, Dir: dir}); err != nil {
		t.Fatalf("the same code: %v", err)
	}
	codeVersion = func() string { return "new" }
	_, err := Run(ctx, s, Options{Runner: RunnerLocal, Dir: dir})
	if err == nil || !strings.Contains(err.Error(), "other code (version old, this is new)") || !strings.Contains(err.Error(), "fresh --out") {
		t.Errorf("a rerun by other code: %v", err)
	}
}
