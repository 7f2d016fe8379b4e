package experiment

import (
	"context"
	"strings"
	"testing"

	"gdlab/engine/propnet"
)

func TestMachine(t *testing.T) {
	m, err := Machine(context.Background(), "ticTacToe")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m.(*propnet.Net); !ok {
		t.Errorf("ticTacToe's machine is a %T, want its network", m)
	}
	if _, err := Network(context.Background(), "noSuchGame"); err == nil {
		t.Error("a game that does not exist loaded")
	}
}

func TestVerdictMarkdown(t *testing.T) {
	for _, c := range []struct {
		v    Verdict
		want string
	}{
		{Verdict{Supported: true, Text: "60 [55, 65]."}, "**Supported.** 60 [55, 65]."},
		{Verdict{Text: "40 [35, 45]."}, "**Not supported.** 40 [35, 45]."},
		{Verdict{Supported: true, Text: "x.", Quick: true}, "**Supported.** x. *(Quick run: not a verdict.)*"},
	} {
		if got := c.v.Markdown(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.v, got, c.want)
		}
	}
	if !strings.Contains(Verdict{Quick: true}.Markdown(), "not a verdict") {
		t.Error("a quick run's verdict does not say it is not one")
	}
}

func TestNewVerdictMarksQuickRuns(t *testing.T) {
	t.Setenv("GDLAB_QUICK", "1")
	if v := NewVerdict(true, "x."); !v.Quick || !v.Supported || v.Text != "x." {
		t.Errorf("quick run: %+v", v)
	}
	t.Setenv("GDLAB_QUICK", "")
	if v := NewVerdict(false, "y."); v.Quick || v.Supported {
		t.Errorf("full run: %+v", v)
	}
}
