package experiment

import "os"

// Quick reports whether this is a quick run (GDLAB_QUICK set): the
// experiments shrink to a scale that checks they run, and their outcomes
// are not verdicts.
func Quick() bool { return os.Getenv("GDLAB_QUICK") != "" }

// Verdict is the outcome of a measurement under a claim. Supported and
// Refuted are computed by the experiment from its data, by a rule it
// states before the run; neither means the data do not decide. Text gives
// the figures the rule read.
type Verdict struct {
	Supported bool
	Refuted   bool // the data contradict the claim
	Text      string
	Quick     bool // a quick run: shown, never taken as a verdict
}

// NewVerdict returns the verdict of a claim, marked quick when this is a
// quick run.
func NewVerdict(supported bool, text string) Verdict {
	return Verdict{Supported: supported, Text: text, Quick: Quick()}
}

// Markdown renders the verdict as a notebook shows it: "Supported.",
// "Refuted." or "Not supported." in bold before the text, and for a quick
// run a note that it is not a verdict.
func (v Verdict) Markdown() string {
	word := "**Not supported.**"
	switch {
	case v.Supported:
		word = "**Supported.**"
	case v.Refuted:
		word = "**Refuted.**"
	}
	if v.Quick {
		return word + " " + v.Text + " *(Quick run: not a verdict.)*"
	}
	return word + " " + v.Text
}
