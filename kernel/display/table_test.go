package display

import (
	"fmt"
	"strings"
	"testing"
)

func TestTableHTML(t *testing.T) {
	d := Table([]string{"player", "score", "note"}, [][]string{
		{"alpha-beta", "61.5", "<b>bold</b> & more"},
		{"random", "-3e2"},
	})
	html := d.Data[MIMEHTML].(string)
	for _, want := range []string{
		`<th style="text-align:left">player</th><th style="text-align:right">score</th>`,
		`<td style="text-align:right">61.5</td>`,
		`&lt;b&gt;bold&lt;/b&gt; &amp; more`,
		`<td style="text-align:right">-3e2</td><td style="text-align:left"></td></tr>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("table HTML lacks %s:\n%s", want, html)
		}
	}
}

func TestNumericColumns(t *testing.T) {
	got := numericColumns([][]string{{"1", "a", "", "45%", "±1.5", "1,024"}, {"2.5", "3", "", "", "2", "7"}}, 6)
	want := []bool{true, false, false, true, true, true}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("numericColumns = %v, want %v", got, want)
	}
}

func ExampleTable() {
	d := Table([]string{"game", "playouts/s"}, [][]string{
		{"ticTacToe", "9169"},
		{"connectFour", "573.5"},
	})
	fmt.Println(d.Text())
	// Output:
	// game         playouts/s
	// -----------  ----------
	// ticTacToe          9169
	// connectFour       573.5
}
