"""End-to-end tests of what cells show and call through a real kernel:
charts (echarts sent once, SVG fallback), tables, and the compiled engine
reached through the extracted symbols.

Run through run_tests.sh, which installs the kernelspec in a temporary prefix.
"""

import unittest

from test_e2e import KernelCase

CHART = ('display.LineChart("t").Labels("x", "y")'
         '.AddErr("s", []float64{1, 2, 3}, []float64{4, 5, 6}, []float64{0.5, 0.5, 1})')


class DisplayTests(KernelCase):
    def result(self, code):
        reply, outputs = self.execute(code)
        self.assertEqual(reply["status"], "ok", reply)
        results = [m for m in outputs if m["msg_type"] == "execute_result"]
        self.assertEqual(len(results), 1, outputs)
        return results[0]["content"]["data"]

    def test_chart_bundle_and_library_once(self):
        self.execute('import "gdlab/kernel/display"')
        first = self.result(CHART)
        second = self.result(CHART)
        for data in (first, second):
            self.assertEqual(set(data), {"text/html", "image/svg+xml", "text/plain"})
            self.assertTrue(data["image/svg+xml"].startswith("<svg "))
            self.assertIn(data["image/svg+xml"], data["text/html"])
            self.assertIn("echarts.init(el)", data["text/html"])
        self.assertIn("Apache ECharts", first["text/html"])
        self.assertNotIn("Apache ECharts", second["text/html"])
        self.assertLess(len(second["text/html"]), 20000)

    def test_table(self):
        self.execute('import "gdlab/kernel/display"')
        data = self.result('display.Table([]string{"a", "n"}, [][]string{{"<x>", "1.5"}})')
        self.assertIn("&lt;x&gt;", data["text/html"])
        self.assertIn('<td style="text-align:right">1.5</td>', data["text/html"])
        self.assertEqual(data["text/plain"].splitlines()[-1], "<x>  1.5")

    def test_engine_from_cell(self):
        reply, _ = self.execute(
            'import ("context"; "gdlab/datasets"; "gdlab/engine/game"; "gdlab/engine/prover"; '
            '"gdlab/engine/search")\n'
            'g, err := datasets.Game("ticTacToe")\nif err != nil { panic(err) }\n'
            'd, err := g.Description()\nif err != nil { panic(err) }\n'
            'm, err := prover.New(d)\nif err != nil { panic(err) }')
        self.assertEqual(reply["status"], "ok", reply)
        self.assertEqual(self.result_text(
            'r, err := game.Playout(context.Background(), m, m.Initial(), game.NewRand(1), 0)\n'
            'r.Terminal && err == nil'), "true")
        # An evaluator declared in the cell, called back by compiled search.
        self.execute(
            'type half struct{}\n'
            'func (half) Evaluate(m game.Machine, s game.State, role int) (float64, error) { return 50, nil }')
        self.assertEqual(self.result_text(
            'v, _, err := search.MinimaxValue(context.Background(), m, m.Initial(), 0, 1, half{}, search.Budget{})\n'
            'v == 50 && err == nil'), "true")


if __name__ == "__main__":
    unittest.main()
