package display

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Table shows rows of text under headers: an HTML table, with numbers
// right-aligned, and the same table in aligned plain text. Short rows are
// padded with empty cells; cells are text, never markup.
//
//	display.Table([]string{"game", "playouts/s"}, [][]string{{"ticTacToe", "9169"}})
func Table(headers []string, rows [][]string) Data {
	cols := len(headers)
	for _, r := range rows {
		cols = max(cols, len(r))
	}
	numeric := numericColumns(rows, cols)
	return Data{Data: MIMEMap{
		MIMEHTML: tableHTML(headers, rows, cols, numeric),
		MIMEText: tableText(headers, rows, cols, numeric),
	}}
}

// numericColumns reports, per column, whether every non-empty cell of the
// rows reads as a number (such as "12", "-0.5", "3.2e4", "45%", "±1.5").
func numericColumns(rows [][]string, cols int) []bool {
	out := make([]bool, cols)
	for c := range out {
		seen := false
		out[c] = true
		for _, r := range rows {
			cell := strings.TrimSpace(cellAt(r, c))
			if cell == "" {
				continue
			}
			seen = true
			if !isNumber(cell) {
				out[c] = false
				break
			}
		}
		out[c] = out[c] && seen
	}
	return out
}

func isNumber(s string) bool {
	s = strings.TrimPrefix(s, "±")
	s = strings.TrimSuffix(s, "%")
	_, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64)
	return err == nil
}

func cellAt(r []string, c int) string {
	if c < len(r) {
		return r[c]
	}
	return ""
}

func tableHTML(headers []string, rows [][]string, cols int, numeric []bool) string {
	var b strings.Builder
	b.WriteString(`<table class="gdlab-table">`)
	if len(headers) > 0 {
		b.WriteString("\n<thead><tr>")
		for c := range cols {
			b.WriteString(cellTag("th", cellAt(headers, c), numeric[c]))
		}
		b.WriteString("</tr></thead>")
	}
	b.WriteString("\n<tbody>\n")
	for _, r := range rows {
		b.WriteString("<tr>")
		for c := range cols {
			b.WriteString(cellTag("td", cellAt(r, c), numeric[c]))
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody>\n</table>\n")
	return b.String()
}

func cellTag(tag, text string, right bool) string {
	style := ""
	if right {
		style = ` style="text-align:right"`
	} else {
		style = ` style="text-align:left"`
	}
	return "<" + tag + style + ">" + esc(text) + "</" + tag + ">"
}

// tableText lays the table out in columns two spaces apart, with a rule
// under the headers.
func tableText(headers []string, rows [][]string, cols int, numeric []bool) string {
	width := make([]int, cols)
	all := append([][]string{headers}, rows...)
	for _, r := range all {
		for c := range cols {
			width[c] = max(width[c], utf8.RuneCountInString(cellAt(r, c)))
		}
	}
	var b strings.Builder
	line := func(r []string) {
		var cells []string
		for c := range cols {
			cell, pad := cellAt(r, c), strings.Repeat(" ", width[c]-utf8.RuneCountInString(cellAt(r, c)))
			if numeric[c] {
				cells = append(cells, pad+cell)
			} else {
				cells = append(cells, cell+pad)
			}
		}
		b.WriteString(strings.TrimRight(strings.Join(cells, "  "), " "))
		b.WriteString("\n")
	}
	if len(headers) > 0 {
		line(headers)
		var rule []string
		for c := range cols {
			rule = append(rule, strings.Repeat("-", width[c]))
		}
		b.WriteString(strings.Join(rule, "  ") + "\n")
	}
	for _, r := range rows {
		line(r)
	}
	return strings.TrimRight(b.String(), "\n")
}
