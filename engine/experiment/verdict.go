package experiment

import (
	"fmt"
	"os"
)

// Quick reports whether this is a quick run (GDLAB_QUICK set): the
// experiments shrink to a scale that checks they run, and their outcomes
// are not verdicts.
func Quick() bool { return os.Getenv("GDLAB_QUICK") != "" }

// Verdict is the outcome of a measurement under a claim. Supported and
// Refuted are computed by the experiment from its data, by a rule it
// states before the run; neither means the data do not decide. Text gives
// the figures the rule read.
type Verdict struct {
	// Claim names a claim decided from the results ledger, "" for a
	// verdict on this run's data alone. A named verdict is marked in its
	// Markdown, so that the notebook check can compare the verdict a
	// notebook was committed with and the one its ledger gives now.
	Claim     string
	Supported bool
	Refuted   bool // the data contradict the claim
	Text      string
	Quick     bool // a quick run: shown, never taken as a verdict
	// Stale marks a verdict decided on runs of other code than the code
	// running now (which has no full run yet): it is theirs, not yet this
	// code's.
	Stale bool
}

// NewVerdict returns the verdict of a claim on this run's data, marked
// quick when this is a quick run.
func NewVerdict(supported bool, text string) Verdict {
	return Verdict{Supported: supported, Text: text, Quick: Quick()}
}

// Word is the verdict in a word: "supported", "refuted" or "not
// supported".
func (v Verdict) Word() string {
	switch {
	case v.Supported:
		return "supported"
	case v.Refuted:
		return "refuted"
	}
	return "not supported"
}

// Markdown renders the verdict as a notebook shows it: "Supported.",
// "Refuted." or "Not supported." in bold before the text; for a stale
// verdict, that the runs decided on are of other code; for a quick run, a
// note that it is not a verdict (or, for a verdict from the ledger, that
// the full runs decided it); and for a named claim, an HTML comment
// "<!-- claim NAME: WORD -->" that rendering hides.
func (v Verdict) Markdown() string {
	word := map[string]string{"supported": "**Supported.**", "refuted": "**Refuted.**", "not supported": "**Not supported.**"}[v.Word()]
	if v.Stale {
		word = fmt.Sprintf("**Not decided for this code**: the pooled runs of older code make it %s.", v.Word())
	}
	md := word + " " + v.Text
	switch {
	case v.Quick && v.Claim != "":
		md += " *(Quick run: decided from the ledger's full runs, not from this run.)*"
	case v.Quick:
		md += " *(Quick run: not a verdict.)*"
	}
	if v.Claim != "" {
		md += fmt.Sprintf("\n\n<!-- claim %s: %s -->", v.Claim, v.Word())
	}
	return md
}
