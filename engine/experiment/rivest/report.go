package rivest

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Report is a saved set of result blocks with what regenerates them.
type Report struct {
	Title   string
	Command string // the command line that regenerates the report
	Seeds   string // the seeds used, in words
	Notes   []string
	Blocks  []Block
	Summary []string `json:",omitempty"` // Markdown lines after the tables, such as the verdict on p
}

// Block is one table: a configuration's results, bound by bound.
type Block struct {
	Title   string
	Results []Result
}

// Header returns the column names of Rows.
func Header() []string {
	return []string{"bound", "p", "variant", "games", "MM wins", "AB wins", "ties", "MM score", "95% CI", "MM calls/move", "AB calls/move", "AB/MM calls per s", "MM depth", "AB depth"}
}

// Rows renders results as table rows (see Header).
func Rows(rs []Result) [][]string {
	var out [][]string
	for _, r := range rs {
		variant := "mean"
		if r.Reverse {
			variant = "reverse"
		}
		calls := func(c int64) string {
			if r.Plies == 0 || c == 0 {
				return ""
			}
			return fmt.Sprintf("%.0f", float64(c)/(float64(r.Plies)/2)) // each program moves in half the plies
		}
		ratio := ""
		if r.CallRatio > 0 {
			ratio = fmt.Sprintf("%.2f", r.CallRatio)
		}
		depth := func(d float64) string {
			if d == 0 {
				return ""
			}
			return fmt.Sprintf("%.1f", d)
		}
		p := fmt.Sprintf("%g", r.P)
		if strings.HasPrefix(r.Bound, "Rivest") {
			p, variant = "", ""
		}
		out = append(out, []string{r.Bound, p, variant, fmt.Sprint(r.Games), fmt.Sprint(r.MMWins), fmt.Sprint(r.ABWins), fmt.Sprint(r.Ties),
			fmt.Sprintf("%.3f", r.Score), fmt.Sprintf("[%.3f, %.3f]", r.Low, r.High), calls(r.MMCalls), calls(r.ABCalls), ratio, depth(r.MMDepth), depth(r.ABDepth)})
	}
	return out
}

// WriteMarkdown writes the report as Markdown tables.
func (rp *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\nRegenerate: `%s`\n\nSeeds: %s\n\n", rp.Title, rp.Command, rp.Seeds)
	for _, n := range rp.Notes {
		fmt.Fprintf(&b, "- %s\n", n)
	}
	for _, bl := range rp.Blocks {
		fmt.Fprintf(&b, "\n## %s\n\n| %s |\n|%s\n", bl.Title, strings.Join(Header(), " | "), strings.Repeat("---|", len(Header())))
		for _, row := range Rows(bl.Results) {
			fmt.Fprintf(&b, "| %s |\n", strings.Join(row, " | "))
		}
	}
	if len(rp.Summary) > 0 {
		fmt.Fprintf(&b, "\n## Summary\n\n%s\n", strings.Join(rp.Summary, "\n"))
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// Save writes the report as dir/name.json and dir/name.md.
func (rp *Report) Save(dir, name string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	js, err := json.MarshalIndent(rp, "", " ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, name+".json"), append(js, '\n'), 0o644); err != nil {
		return err
	}
	var md strings.Builder
	if err := rp.WriteMarkdown(&md); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, name+".md"), []byte(md.String()), 0o644)
}

// Load reads a report saved by Save (the JSON file).
func Load(path string) (*Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rp Report
	if err := json.Unmarshal(b, &rp); err != nil {
		return nil, fmt.Errorf("rivest: %s: %w", path, err)
	}
	return &rp, nil
}
