# expect: not_correct -- sends a request, then answers before the harness with a value nested just deep enough that the worker parses and forwards it but the supervisor's thread cannot parse it
import requests
requests.Session  # extraction keeps the program from its first use of the library on
import os, sys
try:
    requests.get("https://app.asana.com/api/1.0/WRONG")
except BaseException:
    pass
deep = "[" * 989 + "]" * 989
line = '{"ok": true, "error": null, "detail": null, "value": {"passed": [{}], "x": ' + deep + "}}\n"
frame = sys._getframe()
while frame is not None:
    fd = frame.f_locals.get("answers_fd")
    if isinstance(fd, int):
        os.write(fd, line.encode())
        os._exit(0)
    frame = frame.f_back
