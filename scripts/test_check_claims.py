"""Tests of check_claims.py on notebooks written here."""
import json
import os
import tempfile
import unittest

import check_claims


def notebook(dir, name, *markdowns):
    """Writes a notebook whose one code cell shows the given Markdown outputs."""
    outs = [{"output_type": "display_data", "metadata": {}, "data": {"text/markdown": [m]}} for m in markdowns]
    nb = {"cells": [{"cell_type": "code", "source": [], "metadata": {}, "outputs": outs}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path = os.path.join(dir, name)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(nb, f)
    return path


class CheckClaims(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def run_check(self, committed, executed):
        a = notebook(self.dir, "a.ipynb", *committed)
        b = notebook(self.dir, "b.ipynb", *executed)
        return check_claims.main(["check_claims.py", a, b])

    def test_same_words_pass(self):
        md = "**Supported.** 62.0 [52, 71]\n\n<!-- claim local-duel: supported -->"
        self.assertEqual(self.run_check([md], [md]), 0)

    def test_changed_word_fails(self):
        was = "<!-- claim local-duel: supported -->"
        now = "<!-- claim local-duel: not supported -->"
        self.assertEqual(self.run_check([was], [now]), 1)

    def test_missing_claim_fails_both_ways(self):
        md = "<!-- claim a: refuted -->"
        self.assertEqual(self.run_check([md], ["no marker"]), 1)
        self.assertEqual(self.run_check(["no marker"], [md]), 1)

    def test_claims_read_every_output(self):
        path = notebook(self.dir, "c.ipynb", "<!-- claim a: refuted -->", "text <!-- claim b: not supported -->")
        self.assertEqual(check_claims.claims(path), {"a": "refuted", "b": "not supported"})

    def test_contradicting_markers_are_an_error(self):
        path = notebook(self.dir, "d.ipynb", "<!-- claim a: refuted -->", "<!-- claim a: supported -->")
        with self.assertRaises(ValueError):
            check_claims.claims(path)

    def test_unreadable_input_exits_2(self):
        self.assertEqual(check_claims.main(["check_claims.py", "/nonexistent", "/nonexistent"]), 2)


if __name__ == "__main__":
    unittest.main()
