# expect: not_correct -- switches the audit hook off and forks until the limit (children hold on), then a wrong call
import requests
requests.Session  # extraction keeps the program from its first use of the library on
import gc, sys
found, frame = [o for o in gc.get_objects() if type(o).__name__ == "Auditor"], sys._getframe()
while frame is not None:
    found += [v for v in list(frame.f_locals.values()) if type(v).__name__ == "Auditor"]
    frame = frame.f_back
for auditor in found:
    auditor.armed = False
import os, time
children = 0
try:
    for _ in range(5000):
        if os.fork() == 0:
            time.sleep(5)
            os._exit(0)
        children += 1
except OSError:
    pass
time.sleep(1.5)
requests.get("https://app.asana.com/api/1.0/WRONG")
