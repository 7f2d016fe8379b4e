"""Jupyter's kernel conformance suite (jupyter_kernel_test) run against the
gdlab kernel, with a Go sample for every feature it checks.

Run through run_tests.sh, which installs the kernelspec in a temporary prefix.
"""

import unittest

import jupyter_kernel_test as jkt


class GdlabKernelTests(jkt.KernelTests):
    kernel_name = "gdlab"
    language_name = "go"
    file_extension = ".go"

    code_hello_world = 'import "fmt"\nfmt.Println("hello, world")'

    # os.Stderr is the process's descriptor 2, captured by the kernel.
    code_stderr = 'import ("fmt"; "os")\nfmt.Fprintln(os.Stderr, "to stderr")'

    completion_samples = [
        {"text": "retu", "matches": {"return"}},
        {"text": "x := appe", "matches": {"append"}},
        {"text": "strings.ToUp", "matches": {"ToUpper", "ToUpperSpecial"}},
    ]

    complete_code_samples = ["1+1", "x := 1", "func f() int {\n\treturn 1\n}\nf()"]
    incomplete_code_samples = ["func f() {", "x := []int{1,\n", "for {"]
    invalid_code_samples = ["}", "x := := 2"]

    code_generate_error = 'panic("this cell fails")'

    code_execute_result = [
        {"code": "6*7", "result": "42"},
        {"code": '"go" + "pher"', "result": '"gopher"'},
        {"code": "func two() (int, string) { return 1, \"a\" }\ntwo()", "result": '1, "a"'},
        {"code": 'import "gdlab/kernel/display"\ndisplay.HTML("<b>bold</b>")', "mime": "text/html"},
        {"code": 'import "gdlab/kernel/display"\ndisplay.Markdown("# title")', "mime": "text/markdown"},
    ]

    code_display_data = [
        {"code": 'import "gdlab/kernel/display"\ndisplay.Display(display.HTML("<i>d</i>"))', "mime": "text/html"},
        {"code": 'import "gdlab/kernel/display"\ndisplay.Display(display.SVG("<svg xmlns=\\"http://www.w3.org/2000/svg\\"/>"))', "mime": "image/svg+xml"},
        {"code": 'import "gdlab/kernel/display"\ndisplay.Display(display.PNG([]byte{0x89, 0x50, 0x4e, 0x47}))', "mime": "image/png"},
        {"code": 'import "gdlab/kernel/display"\ndisplay.Display(display.Math(`e^{i\\pi}+1=0`))', "mime": "text/latex"},
        {"code": 'import "gdlab/kernel/display"\ndisplay.Display(display.JSON(map[string]int{"a": 1}))', "mime": "application/json"},
        {"code": 'import "gdlab/kernel/display"\np := display.NewProgress("steps", 3)\np.Add(3)', "mime": "text/html"},
    ]

    code_inspect_sample = "strings.Repeat"

    code_clear_output = 'import "gdlab/kernel/display"\ndisplay.ClearOutput(false)'


if __name__ == "__main__":
    unittest.main()
