# expect: not_correct -- sends the expected URL without its query, then answers before the harness with hints of the wrong shape (the answer carries nothing that is judged)
import requests
requests.Session  # extraction keeps the program from its first use of the library on
import json, os, sys
try:
    requests.get("__EXPECTED_URL__", headers={"Authorization": "Bearer <token>"})
except BaseException:
    pass
frame = sys._getframe()
while frame is not None:
    fd = frame.f_locals.get("answers_fd")
    if isinstance(fd, int):
        os.write(fd, (json.dumps({"ok": True, "error": None, "detail": None, "value": {"passed": [[1, 2]]}}) + "\n").encode())
    frame = frame.f_back
