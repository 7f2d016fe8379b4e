"""A real-browser test of the widgets: it starts the classic Jupyter
notebook server on loopback with the gdlab kernel, opens a notebook in
headless Chromium, runs it, moves a slider with the keyboard and checks
that the callback redrew the output (a chart and a line of text). A
screenshot of the page after the change is kept in out/browser/.

Needs Debian's chromium, chromium-driver and python3-selenium (the
project's deps script installs them) and jupyter-notebook with the
ipywidgets extension; without them it skips with one line.

Run through run_tests.sh, which installs the kernelspec in a temporary prefix.
"""

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SHOTS = os.path.join(ROOT, "out", "browser")

CELLS = [
    '''import (
	"fmt"

	"gdlab/kernel/display"
	"gdlab/kernel/widget"
)''',
    '''// show draws one bar per unit of depth, so the chart changes with it.
func show(v widget.Values) {
	d := v.Int("depth")
	heights := []float64{}
	names := []string{}
	for i := 1; i <= d; i++ {
		heights = append(heights, float64(i*i))
		names = append(names, fmt.Sprint(i))
	}
	fmt.Printf("depth=%d bars=%d\\n", d, len(heights))
	display.Display(display.BarChart("nodes by depth", names).Add("nodes", nil, heights))
}''',
    '''widget.Interact(show, widget.Int("depth", 1, 8, 1, 3))''',
]


def missing():
    """Names what the test needs and this machine lacks, or ''."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "python3-selenium"
    for tool in ("chromium", "chromedriver", "jupyter-notebook"):
        if shutil.which(tool) is None:
            return tool
    return ""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def notebook(path):
    cells = [{"cell_type": "code", "execution_count": None, "id": "c%d" % i, "metadata": {},
              "outputs": [], "source": src} for i, src in enumerate(CELLS)]
    nb = {"cells": cells, "metadata": {"kernelspec": {"name": "gdlab", "display_name": "Go (gdlab)", "language": "go"}},
          "nbformat": 4, "nbformat_minor": 5}
    with open(path, "w") as f:
        json.dump(nb, f)


@unittest.skipIf(missing(), "browser test skipped: %s is not installed" % missing())
class BrowserTests(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        notebook(os.path.join(self.dir, "widgets.ipynb"))
        self.port = free_port()
        self.token = "gdlab-browser-test"
        args = ["jupyter-notebook", "--no-browser", "--ip=127.0.0.1", "--port=%d" % self.port,
                "--NotebookApp.token=" + self.token, "--notebook-dir=" + self.dir]
        if os.geteuid() == 0:  # containers and CI run as root
            args.append("--allow-root")
        self.log = open(os.path.join(self.dir, "server.log"), "w")
        self.server = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                urllib.request.urlopen("http://127.0.0.1:%d/api?token=%s" % (self.port, self.token), timeout=2)
                break
            except OSError:
                time.sleep(0.5)
        else:
            self.fail("the notebook server did not start: " + open(os.path.join(self.dir, "server.log")).read()[-2000:])
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        opts = webdriver.ChromeOptions()
        for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1600", "--disable-dev-shm-usage"):
            opts.add_argument(arg)
        opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        opts.binary_location = shutil.which("chromium")
        service = Service(executable_path=shutil.which("chromedriver"))
        self.driver = webdriver.Chrome(options=opts, service=service)

    def tearDown(self):
        self.driver.quit()
        self.server.terminate()
        self.server.wait(timeout=20)
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def wait(self, what, check, timeout=60):
        deadline = time.time() + timeout
        while time.time() < deadline:
            value = check()
            if value:
                return value
            time.sleep(0.02)
        self.shot("failed")
        self.fail("timed out waiting for " + what)

    def shot(self, name):
        os.makedirs(SHOTS, exist_ok=True)
        path = os.path.join(SHOTS, name + ".png")
        self.driver.save_screenshot(path)
        print("screenshot:", path, file=sys.stderr)

    def output_text(self):
        return self.driver.execute_script(
            "var o = document.querySelectorAll('.widget-area .output_subarea, .jupyter-widgets-output-area .output_subarea');"
            "return Array.prototype.map.call(o, function(e) { return e.innerText; }).join('\\n');")

    def test_slider_redraws_the_chart(self):
        d = self.driver
        d.get("http://127.0.0.1:%d/notebooks/widgets.ipynb?token=%s" % (self.port, self.token))
        self.wait("the kernel", lambda: d.execute_script(
            "return window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel && Jupyter.notebook.kernel.is_connected();"))
        # The widget front end checks the kernel's widget version when it
        # connects; cells run before that show their widgets statically.
        logs = []
        self.wait("the widget version check", lambda: any(
            "versions are compatible" in e["message"] for e in logs.extend(d.get_log("browser")) or logs))
        d.execute_script("Jupyter.notebook.execute_all_cells();")
        handle = self.wait("the slider", lambda: d.find_elements("css selector", ".ui-slider-handle"))[0]
        self.wait("the first output", lambda: "depth=3 bars=3" in self.output_text())
        charts = lambda: d.execute_script(
            "return document.querySelectorAll('.widget-area .output_subarea svg, .widget-area .output_subarea canvas, "
            ".widget-area .output_subarea img, .widget-area .output_subarea iframe').length;")
        self.wait("the first chart", charts)
        self.shot("before")
        from selenium.webdriver.common.keys import Keys
        handle.click()
        handle.send_keys(Keys.ARROW_RIGHT)
        self.wait("the output at 4", lambda: "depth=4 bars=4" in self.output_text())
        start = time.time()
        handle.send_keys(Keys.ARROW_RIGHT)
        self.wait("the redrawn output", lambda: "depth=5 bars=5" in self.output_text(), timeout=30)
        # A figure, not a verdict: the polling adds up to 20 ms.
        print("slider change to redrawn output: %.0f ms" % (1000 * (time.time() - start)), file=sys.stderr)
        self.assertNotIn("depth=3", self.output_text(), "the old output was not replaced")
        self.wait("the redrawn chart", charts)
        self.shot("after")


if __name__ == "__main__":
    unittest.main()
