"""Protocol tests of comms and widgets through jupyter_client: the kernel
opens widget models over comms, answers comm_info_request, applies the
front end's changes and runs the widgets' callbacks as it runs cells
(their output under the front end's message, a panic reported, an endless
callback interrupted).

Run through run_tests.sh, which installs the kernelspec in a temporary prefix.
"""

import time
import unittest
import uuid

from test_e2e import KernelCase, TIMEOUT

SLIDER = """import (
	"fmt"

	"gdlab/kernel/widget"
)

depth := widget.NewIntSlider("depth", 1, 6, 1, 3)
depth.OnChange(func(v int) { fmt.Println("depth is now", v) })
depth"""


class WidgetCase(KernelCase):
    def front_end(self):
        """Validates the widget version as the notebook's widget front end
        does when it connects: it opens a comm to jupyter.widget.version,
        the kernel sends the version range it speaks, the front end answers
        whether it draws it. Widgets then show as views."""
        comm_id = uuid.uuid4().hex
        out = self.iopub_of(self.comm_request("comm_open", {"comm_id": comm_id, "target_name": "jupyter.widget.version", "data": {}}))
        sent = [m["content"]["data"] for m in out if m["msg_type"] == "comm_msg"]
        self.assertEqual(sent, [{"version": "~2.1.4"}])
        self.iopub_of(self.comm_request("comm_msg", {"comm_id": comm_id, "data": {"validated": True, "frontend_version": "2.1.4"}}))

    def comm_request(self, msg_type, content):
        """Sends a comm message as a front end does; returns its id."""
        msg = self.kc.session.msg(msg_type, content)
        self.kc.shell_channel.send(msg)
        return msg["header"]["msg_id"]

    def comm_info(self, target=None):
        content = {} if target is None else {"target_name": target}
        msg = self.kc.session.msg("comm_info_request", content)
        self.kc.shell_channel.send(msg)
        return self.shell_reply(msg["header"]["msg_id"])

    def slider(self):
        """Shows the slider of SLIDER; returns its model id and the outputs."""
        reply, outputs = self.execute(SLIDER)
        self.assertEqual(reply["status"], "ok", reply)
        views = [m for m in outputs if m["msg_type"] in ("display_data", "execute_result")
                 and "application/vnd.jupyter.widget-view+json" in m["content"]["data"]]
        self.assertEqual(len(views), 1, [m["msg_type"] for m in outputs])
        return views[0]["content"]["data"]["application/vnd.jupyter.widget-view+json"]["model_id"], outputs


class CommTests(WidgetCase):
    def test_comm_info_starts_empty(self):
        reply = self.comm_info()
        self.assertEqual(reply, {"status": "ok", "comms": {}})

    def test_unknown_target_is_closed(self):
        comm_id = uuid.uuid4().hex
        msg_id = self.comm_request("comm_open", {"comm_id": comm_id, "target_name": "nobody", "data": {}})
        out = self.iopub_of(msg_id)
        self.assertEqual([(m["msg_type"], m["content"]["comm_id"]) for m in out], [("comm_close", comm_id)])

    def test_cell_opens_a_comm_and_receives(self):
        reply, outputs = self.execute('''import (
	"fmt"

	"gdlab/kernel/comm"
)

c, err := comm.Default().Open("my.target", comm.Data{"hello": "front end"})
if err != nil {
	panic(err)
}
c.OnMsg(func(d comm.Data) { fmt.Println("got", d["n"]); c.Send(comm.Data{"echo": d["n"]}) })
c.ID''')
        self.assertEqual(reply["status"], "ok", reply)
        opens = [m for m in outputs if m["msg_type"] == "comm_open"]
        self.assertEqual(len(opens), 1)
        self.assertEqual(opens[0]["content"]["target_name"], "my.target")
        self.assertEqual(opens[0]["content"]["data"], {"hello": "front end"})
        comm_id = opens[0]["content"]["comm_id"]
        self.assertEqual(self.comm_info("my.target")["comms"], {comm_id: {"target_name": "my.target"}})
        msg_id = self.comm_request("comm_msg", {"comm_id": comm_id, "data": {"n": 7}})
        out = self.iopub_of(msg_id)
        kinds = [m["msg_type"] for m in out]
        self.assertIn("comm_msg", kinds)
        self.assertEqual([m["content"]["data"] for m in out if m["msg_type"] == "comm_msg"], [{"echo": 7}])
        self.assertEqual("".join(m["content"]["text"] for m in out if m["msg_type"] == "stream"), "got 7\n")
        close_id = self.comm_request("comm_close", {"comm_id": comm_id, "data": {}})
        self.iopub_of(close_id)
        self.assertEqual(self.comm_info()["comms"], {})


class WidgetTests(WidgetCase):
    def setUp(self):
        super().setUp()
        self.front_end()

    def test_slider_opens_its_models_and_displays(self):
        model_id, outputs = self.slider()
        opens = {m["content"]["comm_id"]: m["content"]["data"] for m in outputs if m["msg_type"] == "comm_open"}
        self.assertIn(model_id, opens)
        state = opens[model_id]
        # The state flat, for ipywidgets 6, and under "state", for ipywidgets 7 and nbclient.
        self.assertEqual(state["state"], {k: v for k, v in state.items() if k not in ("state", "buffer_paths")})
        self.assertEqual(state["buffer_paths"], [])
        self.assertEqual(state["_model_name"], "IntSliderModel")
        self.assertEqual(state["_model_module"], "jupyter-js-widgets")
        self.assertEqual(state["_view_name"], "IntSliderView")
        self.assertEqual((state["min"], state["max"], state["step"], state["value"]), (1, 6, 1, 3))
        layout = state["layout"][len("IPY_MODEL_"):]
        self.assertEqual(opens[layout]["_model_name"], "LayoutModel")
        sent = [m["content"]["data"] for m in outputs if m["msg_type"] == "comm_msg" and m["content"]["comm_id"] == model_id]
        self.assertIn({"method": "display"}, sent)
        self.assertTrue(any(d.get("method") == "update" and d["state"].get("value") == 3 for d in sent))
        self.assertIn(model_id, self.comm_info("jupyter.widget")["comms"])

    def test_front_end_change_runs_the_callback(self):
        model_id, _ = self.slider()
        msg_id = self.comm_request("comm_msg", {"comm_id": model_id, "data": {"method": "backbone", "sync_data": {"value": 5}}})
        out = self.iopub_of(msg_id)
        self.assertEqual("".join(m["content"]["text"] for m in out if m["msg_type"] == "stream"), "depth is now 5\n")
        self.assertEqual(self.result_text("depth.Value()"), "5")
        # A cell's change goes to the front end as an update, without the callback.
        reply, outputs = self.execute("depth.SetValue(2)")
        self.assertEqual(reply["status"], "ok", reply)
        updates = [m["content"]["data"] for m in outputs if m["msg_type"] == "comm_msg"]
        self.assertEqual(updates, [{"method": "update", "state": {"value": 2}, "buffers": []}])
        self.assertFalse([m for m in outputs if m["msg_type"] == "stream"])

    def test_request_state(self):
        model_id, _ = self.slider()
        msg_id = self.comm_request("comm_msg", {"comm_id": model_id, "data": {"method": "request_state"}})
        out = self.iopub_of(msg_id)
        states = [m["content"]["data"]["state"] for m in out if m["msg_type"] == "comm_msg"]
        self.assertEqual(len(states), 1)
        self.assertEqual(states[0]["_model_name"], "IntSliderModel")

    def test_callback_panic_is_reported_and_kernel_lives(self):
        model_id, _ = self.slider()
        reply, _ = self.execute('depth.OnChange(func(v int) { panic("no good") })')
        self.assertEqual(reply["status"], "ok", reply)
        msg_id = self.comm_request("comm_msg", {"comm_id": model_id, "data": {"method": "backbone", "sync_data": {"value": 4}}})
        out = self.iopub_of(msg_id)
        errors = [m for m in out if m["msg_type"] == "error"]
        self.assertEqual(len(errors), 1, [m["msg_type"] for m in out])
        self.assertIn("no good", errors[0]["content"]["evalue"])
        self.assertEqual(self.result_text("depth.Value()"), "4")

    def test_endless_callback_is_interrupted(self):
        model_id, _ = self.slider()
        reply, _ = self.execute('spins := 0\ndepth.OnChange(func(v int) {\n\tfor {\n\t\tspins++\n\t}\n})')
        self.assertEqual(reply["status"], "ok", reply)
        msg_id = self.comm_request("comm_msg", {"comm_id": model_id, "data": {"method": "backbone", "sync_data": {"value": 6}}})
        time.sleep(0.5)
        self.km.interrupt_kernel()
        out = self.iopub_of(msg_id)
        self.assertEqual([m["content"]["ename"] for m in out if m["msg_type"] == "error"], ["Interrupted"])
        self.assertEqual(self.result_text("spins > 0"), "true")

    def test_callback_updates_an_output_in_place(self):
        """A callback redraws an output where it stands: update_display_data
        with the display id the output was shown with."""
        reply, outputs = self.execute('''import (
	"fmt"

	"gdlab/kernel/display"
	"gdlab/kernel/widget"
)

shown, err := display.Show(display.Text("n = 2"))
if err != nil {
	panic(err)
}
n := widget.NewIntSlider("n", 1, 9, 1, 2)
n.OnChange(func(v int) { shown.Update(display.Text(fmt.Sprintf("n = %d", v))) })
n''')
        self.assertEqual(reply["status"], "ok", reply)
        first = [m for m in outputs if m["msg_type"] == "display_data" and m["content"]["data"].get("text/plain") == "n = 2"]
        self.assertEqual(len(first), 1, [m["msg_type"] for m in outputs])
        display_id = first[0]["content"]["transient"]["display_id"]
        slider = [m for m in outputs if m["msg_type"] == "comm_open" and m["content"]["data"]["_model_name"] == "IntSliderModel"][0]["content"]["comm_id"]
        out = self.iopub_of(self.comm_request("comm_msg", {"comm_id": slider, "data": {"method": "backbone", "sync_data": {"value": 5}}}))
        updates = [m["content"] for m in out if m["msg_type"] == "update_display_data"]
        self.assertEqual([(u["data"]["text/plain"], u["transient"]["display_id"]) for u in updates], [("n = 5", display_id)])

    def test_button_click_and_interact(self):
        reply, outputs = self.execute('''import (
	"fmt"

	"gdlab/kernel/widget"
)

clicks := 0
b := widget.NewButton("go")
b.OnClick(func() { clicks++ })
b''')
        self.assertEqual(reply["status"], "ok", reply)
        button = [m for m in outputs if m["msg_type"] == "comm_open" and m["content"]["data"]["_model_name"] == "ButtonModel"][0]["content"]["comm_id"]
        for _ in range(3):
            self.iopub_of(self.comm_request("comm_msg", {"comm_id": button, "data": {"method": "custom", "content": {"event": "click"}}}))
        self.assertEqual(self.result_text("clicks"), "3")
        reply, outputs = self.execute('''panel := widget.Interact(func(v widget.Values) {
	fmt.Printf("p=%g games=%s latches=%v\\n", v.Float("p"), v.String("game"), v.Bool("latches"))
}, widget.Log("p", 1, 1000000, 1, 10), widget.Choice("game", []string{"connectFour", "breakthroughSmall"}, "connectFour"), widget.Flag("latches", true))
panel''')
        self.assertEqual(reply["status"], "ok", reply)
        models = {m["content"]["comm_id"]: m["content"]["data"] for m in outputs if m["msg_type"] == "comm_open"}
        names = sorted(d["_model_name"] for d in models.values() if d["_model_name"] not in ("LayoutModel", "SliderStyleModel"))
        self.assertEqual(names, ["CheckboxModel", "DropdownModel", "OutputModel", "SelectionSliderModel", "VBoxModel"])
        self.assertIn("p=10 games=connectFour latches=true\n", "".join(m["content"]["text"] for m in outputs if m["msg_type"] == "stream"))
        slider = [i for i, d in models.items() if d["_model_name"] == "SelectionSliderModel"][0]
        output = [i for i, d in models.items() if d["_model_name"] == "OutputModel"][0]
        self.assertEqual(models[slider]["_options_labels"], ["1", "10", "100", "1000", "10000", "100000", "1e+06"])
        msg_id = self.comm_request("comm_msg", {"comm_id": slider, "data": {"method": "backbone", "sync_data": {"value": "1000"}}})
        out = self.iopub_of(msg_id)
        # The output area is pointed at the change, cleared, and receives the new output.
        self.assertIn({"method": "update", "state": {"msg_id": msg_id}, "buffers": []},
                      [m["content"]["data"] for m in out if m["msg_type"] == "comm_msg" and m["content"]["comm_id"] == output])
        kinds = [m["msg_type"] for m in out]
        self.assertLess(kinds.index("clear_output"), kinds.index("stream"))
        self.assertEqual("".join(m["content"]["text"] for m in out if m["msg_type"] == "stream"), "p=1000 games=connectFour latches=true\n")


class StaticTests(WidgetCase):
    def test_static_html_without_a_front_end(self):
        """With no front end validated, a widget shows as disabled HTML
        controls at its values (and text), not as a view; its model is
        opened all the same, so a notebook runner saves its state."""
        reply, outputs = self.execute(SLIDER[:-len("depth")] + """
box := widget.NewVBox(depth, widget.NewCheckbox("latches", true), widget.NewDropdown("game", []string{"a<b", "c"}, "c"))
box""")
        self.assertEqual(reply["status"], "ok", reply)
        shown = [m["content"]["data"] for m in outputs if m["msg_type"] in ("display_data", "execute_result")]
        self.assertEqual(len(shown), 1, [m["msg_type"] for m in outputs])
        self.assertNotIn("application/vnd.jupyter.widget-view+json", shown[0])
        html = shown[0]["text/html"]
        self.assertIn('<input type="range" min="1" max="6" step="1" value="3" disabled>', html)
        self.assertIn('<input type="checkbox" disabled checked> latches', html)
        self.assertIn("<option>a&lt;b</option><option selected>c</option>", html)
        self.assertEqual(shown[0]["text/plain"], "depth: 3\nlatches: true\ngame: c (of a<b, c)")
        self.assertIn("IntSliderModel", [m["content"]["data"]["_model_name"] for m in outputs if m["msg_type"] == "comm_open"])
        # The front end arrives: from then on a widget is a view.
        self.front_end()
        model_id, _ = self.slider()
        self.assertTrue(model_id)


class SavedStateTests(unittest.TestCase):
    def test_nbclient_saves_the_widget_state(self):
        """A notebook executed headless (as scripts/notebooks.sh does) keeps
        its widgets' state in its metadata, the last change included."""
        import nbformat
        from nbclient import NotebookClient
        nb = nbformat.v4.new_notebook()
        nb.cells = [nbformat.v4.new_code_cell(SLIDER), nbformat.v4.new_code_cell("depth.SetValue(5)")]
        NotebookClient(nb, kernel_name="gdlab", timeout=TIMEOUT).execute()
        saved = nb.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
        sliders = [s for s in saved.values() if s["model_name"] == "IntSliderModel"]
        self.assertEqual(len(sliders), 1, saved)
        self.assertEqual(sliders[0]["model_module"], "jupyter-js-widgets")
        self.assertEqual(sliders[0]["state"]["value"], 5)
        self.assertEqual(sliders[0]["state"]["description"], "depth")


if __name__ == "__main__":
    unittest.main()
