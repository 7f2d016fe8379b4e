"""Tests of strip_widget_state.py: notebooks' HTML fetches nothing from a CDN."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
VIEW = "application/vnd.jupyter.widget-view+json"
STATE = "application/vnd.jupyter.widget-state+json"
FALLBACK = '<input type="range" disabled value="3">'


def widget_notebook():
    """A notebook with one slider output, its state saved as nbclient saves it."""
    model = "0123abcd"
    return {
        "nbformat": 4,
        "nbformat_minor": 5,
        "metadata": {
            "kernelspec": {"name": "gdlab", "display_name": "gdlab", "language": "go"},
            "language_info": {"name": "go"},
            "widgets": {STATE: {"version_major": 2, "version_minor": 0, "state": {
                model: {"model_name": "IntSliderModel", "model_module": "@jupyter-widgets/controls",
                        "model_module_version": "1.5.0", "state": {"value": 3}}}}},
        },
        "cells": [{
            "cell_type": "code", "id": "c1", "execution_count": 1, "metadata": {},
            "source": "widget.Int(\"depth\", 1, 6, 1, 3)",
            "outputs": [{"output_type": "display_data", "metadata": {}, "data": {
                VIEW: {"version_major": 2, "version_minor": 0, "model_id": model},
                "text/html": FALLBACK,
                "text/plain": "depth 3"}}],
        }],
    }


class StripWidgetState(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.src = os.path.join(self.dir, "in.ipynb")
        with open(self.src, "w") as f:
            json.dump(widget_notebook(), f)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def strip(self):
        dst = os.path.join(self.dir, "out.ipynb")
        subprocess.run([sys.executable, os.path.join(HERE, "strip_widget_state.py"), self.src, dst], check=True)
        return dst

    def html(self, path):
        try:
            import nbconvert  # noqa: F401
        except ImportError:
            self.skipTest("nbconvert is not installed (make deps)")
        subprocess.run([sys.executable, "-m", "nbconvert", "--to", "html", "--log-level", "ERROR",
                        "--output-dir", self.dir, "--output", "page.html", path], check=True)
        with open(os.path.join(self.dir, "page.html")) as f:
            return f.read()

    def test_state_dropped_rest_kept(self):
        with open(self.strip()) as f:
            nb = json.load(f)
        want = widget_notebook()
        del want["metadata"]["widgets"]
        self.assertEqual(nb, want)

    def test_html_needs_no_cdn(self):
        # The unstripped notebook's page loads the renderer from unpkg: the
        # reason for the script, and what shows the check below can fail.
        self.assertIn("unpkg.com", self.html(self.src))
        page = self.html(self.strip())
        self.assertNotIn("unpkg.com", page)
        self.assertIn(FALLBACK, page)


if __name__ == "__main__":
    unittest.main()
