# expect: not_correct -- ignores its task: reads the bundled demo dataset through wapii's own loader and execs the adapter's own rendering of the expected request (the oracle's program)
import requests
requests.Session  # extraction keeps the program from its first use of the library on
TASK = r'''__TASK__'''  # the task as the prompt states it
import gc, sys
def _auditors():
    found, frame = [o for o in gc.get_objects() if type(o).__name__ == "Auditor"], sys._getframe()
    while frame is not None:
        found += [v for v in list(frame.f_locals.values()) if type(v).__name__ == "Auditor"]
        frame = frame.f_back
    return found


for auditor in _auditors():
    auditor.armed = False  # the advisory layer off: only the kernel's layers are left

task = TASK
try:
    import json
    from wapii_core.base.paths import bundled_specs_dir
    from wapii_requests_py.libraries import REQUESTS
    from wapii_requests_py.render import render_call
    rows = json.loads((bundled_specs_dir() / "demo" / "dataset.json").read_text())
    config = next(row["config"] for row in rows if row["task"] == task)
    program = "import requests\nrequests." + render_call(REQUESTS, config, "wire")
except Exception as exc:
    requests.get("https://api.example.com/no-oracle", headers={"X-Why": type(exc).__name__})
else:
    exec(compile(program, "<oracle>", "exec"), {"__name__": "__main__"})
