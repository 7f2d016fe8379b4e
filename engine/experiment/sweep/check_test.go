package sweep

import (
	"context"
	"strings"
	"testing"

	"gdlab/engine/search/mcts"
)

const ttt = `"name": "x", "games": ["ticTacToe"], "seeds": 1`

// TestCheckRefusesUnplayableParams: an unbounded search or parameters the
// player refuses at Start are spec errors, in every setting.
func TestCheckRefusesUnplayableParams(t *testing.T) {
	wantParseErrors(t, []parseCase{
		{`{` + ttt + `, "players": [{"kind": "mcts"}]}`, "no bound"},
		{`{` + ttt + `, "players": [{"kind": "mm"}]}`, "no bound"},
		{`{` + ttt + `, "players": [{"kind": "alphabeta"}]}`, "no bound"},
		{`{` + ttt + `, "players": [{"kind": "mcts", "params": {"iterations": 10}}], "axes": [{"param": "mcts.iterations", "values": [5, 0]}]}`, "setting 1"},
		{`{` + ttt + `, "players": [{"kind": "mcts", "params": {"iterations": 10, "power": 0.5}}]}`, "power 0.5"},
		{`{` + ttt + `, "players": [{"kind": "mcts", "params": {"iterations": 10, "c": -1}}]}`, "c -1"},
		{`{` + ttt + `, "players": [{"kind": "mcts", "params": {"iterations": 10, "polyexplore": -1}}]}`, "polyexplore -1"},
		{`{` + ttt + `, "players": [{"kind": "mcts", "params": {"iterations": 2.5}}]}`, "whole number"},
		{`{` + ttt + `, "players": [{"kind": "alphabeta", "params": {"nextcalls": -3}}]}`, "negative"},
		{`{` + ttt + `, "players": [{"kind": "mm", "params": {"ms": 10, "p": 0}}]}`, "p 0"},
	})
	ok := `{` + ttt + `, "players": [{"kind": "mcts", "params": {"ms": 5, "power": 2, "polyexplore": 1}}, {"kind": "random"}, {"kind": "flat-mc"}]}`
	if _, err := Parse("spec.json", []byte(ok)); err != nil {
		t.Errorf("a valid spec: %v", err)
	}
}

// TestStartFailureFailsUnit: a seat whose player refused to start fails
// the unit instead of recording the referee's random moves as its play.
func TestStartFailureFailsUnit(t *testing.T) {
	s := &Spec{Name: "bad", Games: []string{"ticTacToe"}, Seeds: 1, Players: []PlayerSpec{
		{Kind: "mcts", Params: map[string]float64{"iterations": 10, "power": 0.5}},
		{Kind: "random"},
	}}
	_, err := s.Play(context.Background(), Unit{Game: "ticTacToe"}, &machines{})
	if err == nil || !strings.Contains(err.Error(), "failed to start") || !strings.Contains(err.Error(), "0/ticTacToe/0") {
		t.Errorf("error %v, want the unit failed for its seat's Start", err)
	}
}

// TestSpecFileErrorsPositioned: every decoding error of a spec file is at
// its line and column; trailing data and duplicates are refused.
func TestSpecFileErrorsPositioned(t *testing.T) {
	valid := `{` + ttt + `, "players": [{"kind": "random"}]}`
	wantParseErrors(t, []parseCase{
		{"{\"name\": \"x\",\n  \"typo\": 1}", `spec.json:2:3: unknown field "typo"`},
		{"{\"name\": \"x\",\n \"players\": [{\"kind\": \"random\", \"lable\": \"a\"}]}", `spec.json:2:33: unknown field "lable"`},
		{valid + "\n  {}", "spec.json:2:3: data after"},
		{valid + "}", "spec.json:1:"},
		{`{"name": "x", "games": ["ticTacToe", "ticTacToe"], "seeds": 1, "players": [{"kind": "random"}]}`, `game "ticTacToe" is named twice`},
		{`{` + ttt + `, "players": [{"kind": "mcts", "params": {"iterations": 1}}], "axes": [{"param": "mcts.iterations", "values": [1, 2, 1]}]}`, "value 1 twice"},
		{`{` + ttt + `, "players": [{"kind": "mcts", "params": {"iterations": 1}}], "axes": [{"param": "mcts.c", "values": [1]}, {"param": "mcts.c", "values": [2]}]}`, `axis "mcts.c" is named twice`},
		{"{\"name\": \"x\"", "spec.json:1:13: unexpected EOF"},
	})
	if _, err := Parse("spec.json", []byte(valid+"\n\n")); err != nil {
		t.Errorf("trailing white space: %v", err)
	}
}

// TestCheckErrorsPositioned: Parse places Check's errors at the value
// they concern.
func TestCheckErrorsPositioned(t *testing.T) {
	wantParseErrors(t, []parseCase{
		{"{\"name\": \"x\", \"seeds\": 1,\n \"games\": [\"ticTacToe\", \"ticTacToe\"],\n \"players\": [{\"kind\": \"random\"}]}", "spec.json:2:25: sweep: game"},
		{"{\"name\": \"x\", \"seeds\": 1, \"games\": [\"ticTacToe\"],\n \"players\": [{\"kind\": \"random\"},\n  {\"kind\": \"mcts\"}]}", "spec.json:3:3: sweep: player 1"},
		{"{\"name\": \"x\", \"seeds\": 1, \"games\": [\"ticTacToe\"], \"players\": [{\"kind\": \"mcts\", \"params\": {\"c\": 1, \"ms\": 1}}],\n \"axes\": [{\"param\": \"mcts.c\", \"values\": [1,\n 1]}]}", "spec.json:3:2: sweep: axis"},
		{`{"name": "x", "games": ["ticTacToe"], "players": [{"kind": "random"}]}`, "spec.json: sweep: seeds"},
		{"{\"name\": \"x\", \"seeds\": 1,\n \"games\": [\"ticTacToe\", \"noSuchGame\"],\n \"players\": [{\"kind\": \"random\"}]}", `spec.json:2:25: sweep: no curated game "noSuchGame"`},
	})
}

// parseCase is a spec's text and what Parse's error must contain.
type parseCase struct{ text, want string }

// wantParseErrors checks that Parse refuses each text with its error.
func wantParseErrors(t *testing.T, cases []parseCase) {
	t.Helper()
	for _, c := range cases {
		_, err := Parse("spec.json", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one containing %q", c.text, err, c.want)
		}
	}
}

// TestMCTSParamsReachThePlayer: every numeric MCTS parameter of a spec
// sets the mcts.Options field it names.
func TestMCTSParamsReachThePlayer(t *testing.T) {
	p := kinds["mcts"].make(params{"iterations": 7, "c": 0.5, "power": 2, "polyexplore": 1}, nil, nil)
	got := p.(*mcts.Player).Options()
	if got.Iterations != 7 || got.C != 0.5 || got.PowerMean != 2 || got.PolyExplore != 1 {
		t.Errorf("options %+v, want Iterations 7, C 0.5, PowerMean 2, PolyExplore 1", got)
	}
}
