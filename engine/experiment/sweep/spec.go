// Package sweep runs an experiment's grid of settings × games × seeds as
// independent units of work, one match each, and gathers them into one
// table: on this machine's cores (Local) or as an Apache Beam pipeline
// (Beam: the embedded Prism runner by default, or any portable runner).
//
// A Spec is plain data (names, numbers and strings, readable from JSON), so
// a notebook cell or `gdlab sweep SPEC.json` can build one. Every unit is
// decided by the spec and its own key (setting, game, seed number): the
// match seed, the seating and the players' parameters follow from them and
// nothing else, so the table is the same whatever runs it and in whatever
// order, apart from the measured seconds.
package sweep

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"

	"gdlab/datasets"
)

// Spec is a sweep: the players of every match, the axes whose product gives
// the settings, the games and how many seeded matches each setting plays on
// each game.
type Spec struct {
	// Name names the experiment and the output files (NAME.csv, ...).
	Name string `json:"name"`
	// Games are curated games of package datasets, by name.
	Games []string `json:"games"`
	// Players are the entrants of every match, at least one. The first is
	// the sweep's subject: the summary reports its score.
	Players []PlayerSpec `json:"players"`
	// Axes vary players' parameters; a setting is one value of each axis.
	// No axes means one setting, the players as given.
	Axes []Axis `json:"axes,omitempty"`
	// Seeds is the number of matches a setting plays on each game; the
	// seatings rotate with the seed number.
	Seeds int `json:"seeds"`
	// Seed is the base of every match seed.
	Seed uint64 `json:"seed"`
	// MaxMoves stops a match unfinished after this many joint moves; 0
	// means match's default.
	MaxMoves int `json:"max_moves,omitempty"`
	// Seating orders the seatings over the seed numbers: "" alternates
	// them (seed number k plays seating k mod the number of seatings);
	// "grouped" plays them in blocks as match.Tournament does (Seeds must
	// be a multiple of the seatings, each played Seeds/seatings times in a
	// row), so that seed number k is the tournament's match k with the
	// same seed, seating and players.
	Seating string `json:"seating,omitempty"`
	// Openings, when "rivest", plays Rivest's Connect Four experiment
	// (engine/experiment/rivest): the game must be connectFour, there must
	// be two players (MM first), Seeds must be even and at most 98, and
	// seed number k plays opening o = pick(49, Seeds/2)[k/2] (the openings
	// rivest.Run plays) with the first player in seat k mod 2, match seed
	// rivest.GameSeed(Seed, o, k mod 2) and rivest's match options: the
	// same games as rivest.Run's.
	Openings string `json:"openings,omitempty"`
}

// PlayerSpec is one entrant: a kind of player (see Kinds) with its
// parameters and per-move budget, all as named numbers.
type PlayerSpec struct {
	// Label names the player in the table and in axis names; "" means Kind.
	Label string `json:"label,omitempty"`
	// Kind is a player kind of Kinds.
	Kind string `json:"kind"`
	// Eval names a static evaluator for the kinds that take one: "" (the
	// intermediate goal values), "mobility" or "rivest-c4".
	Eval string `json:"eval,omitempty"`
	// Params are the kind's parameters and the budget: "nextcalls",
	// "nodes" and "ms" limit every move; the rest are the kind's own.
	Params map[string]float64 `json:"params,omitempty"`
}

// Axis is one varied parameter: Param names "LABEL.PARAM" (a player's
// label and one of its parameters), and each of Values is tried.
type Axis struct {
	Param  string    `json:"param"`
	Values []float64 `json:"values"`
}

// Values of Spec.Seating and Spec.Openings.
const (
	// SeatingGrouped plays each seating's matches in a row, as
	// match.Tournament numbers them.
	SeatingGrouped = "grouped"
	// OpeningsRivest plays from Rivest's 49 Connect Four openings.
	OpeningsRivest = "rivest"
)

// Name returns the player's label: Label, or Kind when it has none.
func (p PlayerSpec) Name() string {
	if p.Label != "" {
		return p.Label
	}
	return p.Kind
}

// Load reads a spec from a JSON file and checks it. A syntax error is
// reported at its line and column.
func Load(path string) (*Spec, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse reads a spec from JSON text; name is the file name used in errors.
func Parse(name string, data []byte) (*Spec, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var s Spec
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("%s: %w", positionAt(name, data, errorOffset(data, err)), unwrapJSON(err))
	}
	if off, trailing := trailingData(dec, data); trailing {
		return nil, fmt.Errorf("%s: data after the spec's closing brace (a spec file holds one JSON object)", positionAt(name, data, off))
	}
	if err := s.Check(); err != nil {
		off := int64(-1)
		var fe *fieldError
		if errors.As(err, &fe) {
			off = locate(data, fe.path)
		}
		return nil, fmt.Errorf("%s: %w", positionAt(name, data, off), err)
	}
	return &s, nil
}

// trailingData reports whether anything but white space follows the
// decoded value, and the offset where it starts: encoding/json's Decoder
// would silently ignore it, and a second object is most likely a mistake.
func trailingData(dec *json.Decoder, data []byte) (int64, bool) {
	off := dec.InputOffset()
	for off < int64(len(data)) && strings.ContainsRune(" \t\r\n", rune(data[off])) {
		off++
	}
	return off, off < int64(len(data))
}

// unknownField matches encoding/json's error for a field the spec lacks.
var unknownField = regexp.MustCompile(`^json: unknown field (".*")$`)

// errorOffset returns the offset in data of a JSON decoding error, or -1.
// An unknown field's error carries no offset: it is placed at the first
// key of that name (the field's name, in quotes, before a colon).
func errorOffset(data []byte, err error) int64 {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return se.Offset
	case errors.As(err, &te):
		return te.Offset
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return int64(len(data))
	}
	if m := unknownField.FindStringSubmatch(err.Error()); m != nil {
		key := regexp.MustCompile(regexp.QuoteMeta(m[1]) + `\s*:`)
		if loc := key.FindIndex(data); loc != nil {
			return int64(loc[0])
		}
	}
	return -1
}

// positionAt gives name:line:col of an offset in data (col counting from 1 at the
// byte after off), or name alone for an offset outside it.
func positionAt(name string, data []byte, off int64) string {
	if off < 0 || off > int64(len(data)) {
		return name
	}
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	col := int(off) - bytes.LastIndexByte(data[:off], '\n')
	return fmt.Sprintf("%s:%d:%d", name, line, col)
}

func unwrapJSON(err error) error {
	return errors.New(strings.TrimPrefix(err.Error(), "json: "))
}

// Check reports the first thing wrong with the spec: no name, games or
// players, an unknown player kind or evaluator, a parameter the kind does
// not take, an axis naming no player's parameter, or no seeds.
func (s *Spec) Check() error {
	switch {
	case s.Name == "" || strings.ContainsAny(s.Name, `/\`):
		return inField(errors.New("sweep: the spec needs a name without slashes"), "name")
	case len(s.Games) == 0:
		return inField(errors.New("sweep: the spec names no games"), "games")
	case len(s.Players) == 0:
		return inField(errors.New("sweep: the spec names no players"), "players")
	case s.Seeds <= 0:
		return inField(errors.New("sweep: seeds must be at least 1"), "seeds")
	case s.Seating != "" && s.Seating != SeatingGrouped:
		return inField(fmt.Errorf("sweep: unknown seating %q (have \"\" or %q)", s.Seating, SeatingGrouped), "seating")
	case s.Openings != "" && s.Openings != OpeningsRivest:
		return inField(fmt.Errorf("sweep: unknown openings %q (have \"\" or %q)", s.Openings, OpeningsRivest), "openings")
	case s.Openings == OpeningsRivest && (len(s.Games) != 1 || s.Games[0] != "connectFour" || len(s.Players) != 2 || s.Seeds%2 != 0 || s.Seeds > 98 || s.Seating != ""):
		return inField(errors.New("sweep: Rivest's openings need the one game connectFour, two players, an even number of seeds up to 98 and the default seating"), "openings")
	}
	labels := map[string]bool{}
	for i, p := range s.Players {
		if labels[p.Name()] {
			return inField(fmt.Errorf("sweep: players %d and another share the label %q", i, p.Name()), "players", i)
		}
		labels[p.Name()] = true
		if err := checkPlayer(p); err != nil {
			return inField(fmt.Errorf("sweep: player %d (%s): %w", i, p.Name(), err), "players", i)
		}
	}
	if err := s.checkDuplicates(); err != nil {
		return err
	}
	if err := s.checkGames(); err != nil {
		return err
	}
	for i, a := range s.Axes {
		if err := s.checkAxis(a); err != nil {
			return inField(err, "axes", i)
		}
	}
	return s.checkSettings()
}

// checkDuplicates refuses a game, an axis or an axis's value named twice:
// each would give units with the same key.
func (s *Spec) checkDuplicates() error {
	if i := firstRepeat(s.Games); i >= 0 {
		return inField(fmt.Errorf("sweep: game %q is named twice", s.Games[i]), "games", i)
	}

	if i := firstRepeat(s.axisNames()); i >= 0 {
		return inField(fmt.Errorf("sweep: axis %q is named twice", s.Axes[i].Param), "axes", i)
	}
	for j, a := range s.Axes {
		vs := make([]string, len(a.Values))
		for i, v := range a.Values {
			vs[i] = num(v)
		}
		if i := firstRepeat(vs); i >= 0 {
			return inField(fmt.Errorf("sweep: axis %q has the value %s twice", a.Param, vs[i]), "axes", j, "values", i)
		}
	}
	return nil
}

// checkGames refuses a game that package datasets does not have, before
// any unit runs.
func (s *Spec) checkGames() error {
	curated := datasets.List()
	for i, g := range s.Games {
		if !slices.Contains(curated, g) {
			return inField(fmt.Errorf("sweep: no curated game %q (datasets has %s)", g, strings.Join(curated, ", ")), "games", i)
		}
	}
	return nil
}

// firstRepeat returns the index of the first string seen before, or -1.
func firstRepeat(xs []string) int {
	seen := map[string]bool{}
	for i, x := range xs {
		if seen[x] {
			return i
		}
		seen[x] = true
	}
	return -1
}

// checkSettings checks every player's parameters in every setting, as the
// axes may set a parameter the player's own value would have made valid.
func (s *Spec) checkSettings() error {
	for i, setting := range s.Settings() {
		for j, p := range s.Players {
			if err := checkParams(kinds[p.Kind], p.in(setting)); err != nil {
				return inField(fmt.Errorf("sweep: player %d (%s) in setting %d (%s): %w", j, p.Name(), i, ValuesText(s, setting), err), "players", j)
			}
		}
	}
	return nil
}

func (s *Spec) checkAxis(a Axis) error {
	label, param, ok := strings.Cut(a.Param, ".")
	if !ok || len(a.Values) == 0 {
		return fmt.Errorf("sweep: axis %q needs the form LABEL.PARAM and at least one value", a.Param)
	}
	for _, p := range s.Players {
		if p.Name() == label {
			if !kinds[p.Kind].takes(param) {
				return fmt.Errorf("sweep: axis %q: a %s player takes no %q (it takes %s)", a.Param, p.Kind, param, kinds[p.Kind].paramList())
			}
			return nil
		}
	}
	return fmt.Errorf("sweep: axis %q names no player's label", a.Param)
}

// Settings returns every setting of the sweep, in order: the product of the
// axes, the last axis varying fastest. A setting maps each axis's parameter
// to its value.
func (s *Spec) Settings() []map[string]float64 {
	out := []map[string]float64{{}}
	for _, a := range s.Axes {
		var next []map[string]float64
		for _, base := range out {
			for _, v := range a.Values {
				m := make(map[string]float64, len(base)+1)
				for k, x := range base {
					m[k] = x
				}
				m[a.Param] = v
				next = append(next, m)
			}
		}
		out = next
	}
	return out
}

// ValuesText writes a setting's axis values as "param=value, ...", in the
// spec's order of axes; "as given" when the spec has none.
func ValuesText(s *Spec, setting map[string]float64) string {
	if len(s.Axes) == 0 {
		return "as given"
	}
	parts := make([]string, len(s.Axes))
	for i, a := range s.Axes {
		parts[i] = a.Param + "=" + num(setting[a.Param])
	}
	return strings.Join(parts, ", ")
}

// axisNames returns the axes' parameter names in the spec's order.
func (s *Spec) axisNames() []string {
	out := make([]string, len(s.Axes))
	for i, a := range s.Axes {
		out[i] = a.Param
	}
	return out
}

// sortedKeys returns a map's keys in order.
func sortedKeys(m map[string]float64) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
