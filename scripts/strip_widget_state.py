#!/usr/bin/env python3
"""Copies a notebook without its saved widget state (metadata.widgets).

Usage: strip_widget_state.py IN.ipynb OUT.ipynb

scripts/notebooks.sh renders HTML from the copy. nbconvert's HTML template
loads a widget renderer from unpkg.com whenever a notebook carries widget
state; without the state it renders each widget output by its text/html
fallback, which the gdlab kernel always sends (disabled controls at their
values), so the page needs no network. The executed notebook keeps its
state for Jupyter.
"""
import json
import sys


def main(src, dst):
    with open(src, encoding="utf-8") as f:
        nb = json.load(f)
    nb.get("metadata", {}).pop("widgets", None)
    with open(dst, "w", encoding="utf-8") as f:
        json.dump(nb, f, ensure_ascii=False, indent=1)
        f.write("\n")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: strip_widget_state.py IN.ipynb OUT.ipynb")
    main(sys.argv[1], sys.argv[2])
