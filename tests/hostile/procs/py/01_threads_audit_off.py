# expect: not_correct -- switches the audit hook off, starts threads until the limit, holds them, calls a wrong URL
import requests
requests.Session  # extraction keeps the program from its first use of the library on
import gc, sys
found, frame = [o for o in gc.get_objects() if type(o).__name__ == "Auditor"], sys._getframe()
while frame is not None:
    found += [v for v in list(frame.f_locals.values()) if type(v).__name__ == "Auditor"]
    frame = frame.f_back
for auditor in found:
    auditor.armed = False
import threading, time
threading.stack_size(1 << 16)
try:
    for _ in range(20000):
        threading.Thread(target=time.sleep, args=(5,), daemon=True).start()
except (RuntimeError, OSError):
    pass
time.sleep(1.5)
requests.get("https://app.asana.com/api/1.0/WRONG")
