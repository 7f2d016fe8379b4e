"""Tests of corelock.sh: notebooks that need the machine alone run alone."""
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))

# holder takes the lock for notebook $1, logs "NAME got", waits for the
# file NAME.release, logs "NAME released" and lets the lock go.
HOLDER = r'''
set -euo pipefail
python="$PYTHON"
. "$SCRIPTS/corelock.sh"
echo "$NAME trying" >>"$DIR/log"
lock_cores "$1"
echo "$NAME got" >>"$DIR/log"
while [ ! -e "$DIR/$NAME.release" ]; do sleep 0.02; done
echo "$NAME released" >>"$DIR/log"
unlock_cores
'''


class CoreLock(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.procs = []
        self.shared = self.notebook("shared.ipynb", {})
        self.alone = self.notebook("alone.ipynb", {"gdlab": {"alone": True}})

    def tearDown(self):
        for name in ("A", "B", "C", "D"):
            open(os.path.join(self.dir, name + ".release"), "w").close()
        for p in self.procs:
            p.wait(timeout=10)

    def notebook(self, name, metadata):
        path = os.path.join(self.dir, name)
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"cells": [], "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}, f)
        return path

    def log(self):
        try:
            with open(os.path.join(self.dir, "log"), encoding="utf-8") as f:
                return f.read().split("\n")
        except FileNotFoundError:
            return []

    def start(self, name, notebook):
        env = dict(os.environ, PYTHON=sys.executable, SCRIPTS=HERE, DIR=self.dir, NAME=name,
                   GDLAB_NOTEBOOK_LOCK=os.path.join(self.dir, "lock"))
        self.procs.append(subprocess.Popen(["bash", "-c", HOLDER, "holder", notebook], env=env,
                                           stdout=subprocess.DEVNULL))

    def await_line(self, line):
        deadline = time.monotonic() + 20
        while line not in self.log():
            if time.monotonic() > deadline:
                self.fail("no %r in the log: %r" % (line, self.log()))
            time.sleep(0.02)

    def release(self, name):
        open(os.path.join(self.dir, name + ".release"), "w").close()
        self.await_line(name + " released")

    def test_alone_notebook_is_read_from_metadata(self):
        for path, want in ((self.shared, "false"), (self.alone, "true")):
            out = subprocess.run(["bash", "-c", 'python="$1"; . "$2/corelock.sh"; notebook_alone "$3"',
                                  "t", sys.executable, HERE, path], capture_output=True, text=True, check=True)
            self.assertEqual(out.stdout.strip(), want)

    def test_alone_waits_for_shared_and_shared_queues_behind_it(self):
        self.start("A", self.shared)
        self.await_line("A got")
        self.start("B", self.shared)
        self.await_line("B got")  # two ordinary notebooks share the cores
        self.start("C", self.alone)
        self.await_line("C trying")
        self.start("D", self.shared)
        self.await_line("D trying")
        time.sleep(0.3)
        self.assertNotIn("C got", self.log())
        self.assertNotIn("D got", self.log())  # behind C's turnstile
        self.release("A")
        self.release("B")
        self.await_line("C got")
        time.sleep(0.3)
        self.assertNotIn("D got", self.log())  # C runs alone
        self.release("C")
        self.await_line("D got")
        self.release("D")
        log = self.log()
        self.assertLess(log.index("C released"), log.index("D got"))


if __name__ == "__main__":
    unittest.main()
