#!/usr/bin/env python3
"""Compares the claim verdicts of a committed notebook and of its executed copy.

A verdict decided from the results ledger carries a hidden marker in its
Markdown output, "<!-- claim NAME: WORD -->" (engine/experiment's
Verdict.Markdown). The committed notebook holds the words it was committed
with; the executed copy holds the words the ledger and the code give now.
Any claim whose word differs, or that one of the two lacks, fails the check:
the committed notebook's conclusion no longer matches the code.

Usage: check_claims.py COMMITTED.ipynb EXECUTED.ipynb
Prints one line per claim; exits 1 on a mismatch, 2 on unreadable input.
"""
import json
import re
import sys

MARKER = re.compile(r"<!-- claim ([^:\s]+): ([a-z ]+?) -->")


def claims(path):
    """Returns {claim: word} from the Markdown outputs of a notebook's cells."""
    with open(path, encoding="utf-8") as f:
        nb = json.load(f)
    found = {}
    for cell in nb.get("cells", []):
        for out in cell.get("outputs", []):
            md = out.get("data", {}).get("text/markdown", "")
            if isinstance(md, list):
                md = "".join(md)
            for name, word in MARKER.findall(md):
                if name in found and found[name] != word:
                    raise ValueError(f"{path}: claim {name} is both {found[name]!r} and {word!r}")
                found[name] = word
    return found


def compare(committed, executed):
    """Returns the lines describing each claim and whether all match."""
    lines, ok = [], True
    for name in sorted(set(committed) | set(executed)):
        was, now = committed.get(name), executed.get(name)
        if was == now:
            lines.append(f"  claim {name}: {now}")
            continue
        ok = False
        if was is None:
            lines.append(f"  claim {name}: {now}, but the committed notebook does not state it (rerun it with --update)")
        elif now is None:
            lines.append(f"  claim {name}: committed as {was}, but the run does not state it")
        else:
            lines.append(f"  claim {name}: committed as {was}, the run now says {now}")
    return lines, ok


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[-2], file=sys.stderr)
        return 2
    try:
        committed, executed = claims(argv[1]), claims(argv[2])
    except (OSError, ValueError) as e:
        print(f"check_claims: {e}", file=sys.stderr)
        return 2
    lines, ok = compare(committed, executed)
    print("\n".join(lines) if lines else "  no claims decided from the ledger")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
