"""End-to-end tests of the gdlab kernel through jupyter_client: interrupts,
panics, bad signatures, restart, output capture and ordering.

Run through run_tests.sh, which installs the kernelspec in a temporary prefix.
"""

import os
import signal
import time
import unittest
from queue import Empty

from jupyter_client.manager import start_new_kernel
from jupyter_client.session import Session

TIMEOUT = 20


class KernelCase(unittest.TestCase):
    def setUp(self):
        self.km, self.kc = start_new_kernel(kernel_name="gdlab")

    def tearDown(self):
        self.kc.stop_channels()
        self.km.shutdown_kernel(now=True)

    def execute(self, code, timeout=TIMEOUT):
        """Runs code; returns the reply content and the iopub messages it
        caused, up to and excluding its idle status."""
        msg_id = self.kc.execute(code)
        return self.collect(msg_id, timeout)

    def collect(self, msg_id, timeout=TIMEOUT):
        reply = self.shell_reply(msg_id, timeout)
        return reply, self.iopub_of(msg_id, timeout)

    def iopub_of(self, msg_id, timeout=TIMEOUT):
        """The iopub messages a request caused, up to its idle status."""
        outputs = []
        deadline = time.time() + timeout
        while time.time() < deadline:
            msg = self.kc.get_iopub_msg(timeout=timeout)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if msg["msg_type"] == "status":
                if msg["content"]["execution_state"] == "idle":
                    return outputs
                continue
            outputs.append(msg)
        self.fail("no idle status after %s" % msg_id)

    def shell_reply(self, msg_id, timeout=TIMEOUT):
        while True:
            reply = self.kc.get_shell_msg(timeout=timeout)
            if reply["parent_header"].get("msg_id") == msg_id:
                return reply["content"]

    def result_text(self, code):
        reply, outputs = self.execute(code)
        self.assertEqual(reply["status"], "ok", reply)
        results = [m for m in outputs if m["msg_type"] == "execute_result"]
        self.assertEqual(len(results), 1, outputs)
        return results[0]["content"]["data"]["text/plain"]


class InterruptTests(KernelCase):
    def check_interrupted(self, interrupt):
        msg_id = self.kc.execute("n := 0\nfor {\n\tn++\n}")
        time.sleep(0.5)
        start = time.time()
        interrupt()
        reply, outputs = self.collect(msg_id)
        self.assertLess(time.time() - start, 5)
        self.assertEqual(reply["status"], "error")
        self.assertEqual(reply["ename"], "Interrupted")
        self.assertEqual([m["msg_type"] for m in outputs], ["execute_input", "error"])
        # The kernel lives on, with the interrupted cell's variable.
        self.assertEqual(self.result_text("n > 0"), "true")

    def test_interrupt_message(self):
        self.check_interrupted(self.km.interrupt_kernel)

    def test_interrupt_signal(self):
        self.check_interrupted(lambda: os.kill(self.km.provisioner.process.pid, signal.SIGINT))

    def test_interrupt_long_search(self):
        # An engine search under a 60 s budget, given the cell's context,
        # stops soon after an interrupt, and the next cell runs normally.
        # The search plays through a Counter so that a later cell can see it
        # has stopped: interpreted statements after the interrupted call do
        # not run (the interpreter is stopped too), so the cell cannot record
        # its own end.
        setup = self.kc.execute(
            'import ("context"; "gdlab/datasets"; "gdlab/engine/propnet"; "gdlab/engine/search"; "gdlab/kernel/cell"; "time")\n'
            'g, err := datasets.Game("connectFour")\nif err != nil { panic(err) }\n'
            'd, err := g.Description()\nif err != nil { panic(err) }\n'
            'net, err := propnet.Build(cell.Context(), d, propnet.Options{})\nif err != nil { panic(err) }\n'
            'calls := search.NewCounter(context.Background(), net, search.Budget{})\n'
            'p := &search.Deepening{}\n'
            'if err := p.Start(cell.Context(), search.Setup{Machine: calls, Seed: 1}); err != nil { panic(err) }')
        self.assertEqual(self.collect(setup)[0]["status"], "ok")
        msg_id = self.kc.execute(
            '_, report, err := p.Play(cell.Context(), net.Initial(), search.Budget{Time: 60 * time.Second})')
        time.sleep(1)
        start = time.time()
        self.km.interrupt_kernel()
        reply, _ = self.collect(msg_id)
        latency = time.time() - start
        print("search interrupted: reply %.0f ms after the interrupt" % (latency * 1000))
        self.assertEqual(reply["status"], "error")
        self.assertLess(latency, 2, "the search ignored the interrupt")
        # The search itself stopped, not merely the kernel's reply: it made
        # Next calls before the interrupt and makes none after.
        self.assertEqual(self.result_text(
            'before := calls.Used().NextCalls\ntime.Sleep(300 * time.Millisecond)\n'
            'before > 0 && calls.Used().NextCalls == before'), "true")
        self.assertEqual(self.result_text("1 + 1"), "2")

    def test_interrupt_reaches_cell_context(self):
        msg_id = self.kc.execute('import "gdlab/kernel/cell"\n<-cell.Context().Done()\n"after"')
        time.sleep(0.5)
        self.km.interrupt_kernel()
        reply, _ = self.collect(msg_id)
        self.assertEqual(reply["ename"], "Interrupted")


class FailureTests(KernelCase):
    def test_panic_then_working_cell(self):
        reply, outputs = self.execute('func explode() { panic("kaboom") }\nexplode()')
        self.assertEqual(reply["status"], "error")
        self.assertEqual(reply["ename"], "panic")
        self.assertEqual(reply["evalue"], "kaboom")
        errors = [m for m in outputs if m["msg_type"] == "error"]
        self.assertEqual(len(errors), 1)
        self.assertTrue(any("explode" in line for line in errors[0]["content"]["traceback"]),
                        errors[0]["content"]["traceback"])
        self.assertEqual(self.result_text("1 + 1"), "2")

    def test_panic_on_native_goroutine(self):
        reply, _ = self.execute(
            'import "time"\ndone := make(chan bool)\n'
            'time.AfterFunc(0, func() { defer close(done); panic("in a timer") })\n'
            # The callback's own defers run before the guard's, so give
            # the guard a moment to record the panic within this cell.
            '<-done\ntime.Sleep(200 * time.Millisecond)')
        self.assertEqual(reply["status"], "error")
        self.assertEqual(reply["ename"], "GoroutinePanic")
        self.assertEqual(self.result_text('"alive"'), '"alive"')

    def test_stop_on_error_aborts_queued_cells(self):
        first = self.kc.execute('import "time"\ntime.Sleep(300 * time.Millisecond)\npanic("stop here")')
        queued = self.kc.execute("ranAnyway := 1")
        self.assertEqual(self.shell_reply(first)["status"], "error")
        self.assertEqual(self.shell_reply(queued)["status"], "aborted")
        reply, _ = self.execute("ranAnyway")
        self.assertEqual(reply["ename"], "CompileError", "an aborted cell ran")

    def test_compile_error_position(self):
        self.execute("x := 1")
        reply, _ = self.execute("x = 2\ny := undefinedThing")
        self.assertEqual(reply["ename"], "CompileError")
        self.assertTrue(reply["evalue"].startswith("2:"), reply["evalue"])
        # Nothing in a cell that fails to compile runs.
        self.assertEqual(self.result_text("x"), "1")

    def test_bad_signature_ignored(self):
        forged = Session(key=b"not-the-key", username="mallory")
        forged.send(self.kc.shell_channel.socket, "execute_request",
                    content={"code": "forged := 1", "silent": False, "store_history": True,
                             "user_expressions": {}, "allow_stdin": False, "stop_on_error": True})
        with self.assertRaises(Empty):
            self.kc.get_shell_msg(timeout=2)
        reply, _ = self.execute("forged")
        self.assertEqual(reply["status"], "error", "a forged message was executed")
        self.assertEqual(reply["ename"], "CompileError")

    def test_unsigned_message_ignored(self):
        unsigned = Session(key=b"", username="mallory")
        unsigned.send(self.kc.shell_channel.socket, "kernel_info_request", content={})
        with self.assertRaises(Empty):
            self.kc.get_shell_msg(timeout=2)


class LifecycleTests(KernelCase):
    def test_restart(self):
        self.assertEqual(self.result_text("before := 5\nbefore"), "5")
        old_pid = self.km.provisioner.process.pid
        self.km.restart_kernel(now=False)
        self.kc.wait_for_ready(timeout=TIMEOUT)
        self.assertNotEqual(self.km.provisioner.process.pid, old_pid)
        reply, _ = self.execute("before")
        self.assertEqual(reply["ename"], "CompileError", "state survived a restart")
        self.assertEqual(self.result_text("40 + 2"), "42")

    def test_shutdown_reply(self):
        msg_id = self.kc.shutdown(restart=False)
        reply = self.kc.get_control_msg(timeout=TIMEOUT) if hasattr(self.kc, "get_control_msg") else None
        if reply is not None:
            self.assertEqual(reply["content"]["status"], "ok")
        deadline = time.time() + 10
        while self.km.is_alive() and time.time() < deadline:
            time.sleep(0.1)
        self.assertFalse(self.km.is_alive(), "kernel still running after shutdown_request")


class OutputTests(KernelCase):
    def streams(self, outputs, name):
        return "".join(m["content"]["text"] for m in outputs
                       if m["msg_type"] == "stream" and m["content"]["name"] == name)

    def test_native_and_interpreted_output(self):
        reply, outputs = self.execute(
            'import ("fmt"; "os"; "log")\n'
            'fmt.Println("interpreted")\n'
            'os.Stdout.WriteString("native stdout\\n")\n'
            'fmt.Fprintln(os.Stderr, "native stderr")\n'
            'log.New(os.Stderr, "", 0).Print("logged")')
        self.assertEqual(reply["status"], "ok")
        self.assertEqual(self.streams(outputs, "stdout"), "interpreted\nnative stdout\n")
        self.assertEqual(self.streams(outputs, "stderr"), "native stderr\nlogged\n")

    def test_output_order(self):
        _, outputs = self.execute(
            'import ("fmt"; "gdlab/kernel/display")\n'
            'fmt.Println("a")\ndisplay.Display(display.HTML("<p>b</p>"))\nfmt.Println("c")\n"d"')
        kinds = [(m["msg_type"], m["content"].get("text", "")) for m in outputs
                 if m["msg_type"] != "execute_input"]
        self.assertEqual(kinds, [("stream", "a\n"), ("display_data", ""), ("stream", "c\n"),
                                 ("execute_result", "")])

    def test_progress_updates_in_place(self):
        _, outputs = self.execute(
            'import "gdlab/kernel/display"\np := display.NewProgress("work", 4)\n'
            'for i := 0; i < 4; i++ { p.Add(1) }')
        kinds = [m["msg_type"] for m in outputs if m["msg_type"] != "execute_input"]
        self.assertEqual(kinds, ["display_data"] + ["update_display_data"] * 4)
        ids = {m["content"]["transient"]["display_id"] for m in outputs if "transient" in m["content"]}
        self.assertEqual(len(ids), 1)
        self.assertIn("100%", outputs[-1]["content"]["data"]["text/plain"])

    def test_redefinition_and_mixed_cells(self):
        self.execute("type P struct{ A int }\nfunc f() int { return 1 }")
        self.assertEqual(
            self.result_text('type P struct{ B string }\nfunc f() int { return 2 }\n'
                             'q := P{B: "x"}\nq.B + string(rune(48+f()))'),
            '"x2"')

    def test_execution_count(self):
        first, _ = self.execute("1")
        second, _ = self.execute("2")
        self.assertEqual(second["execution_count"], first["execution_count"] + 1)


if __name__ == "__main__":
    unittest.main()
