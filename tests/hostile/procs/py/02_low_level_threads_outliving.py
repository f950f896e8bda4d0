# expect: not_correct -- _thread threads (no threading bookkeeping) that outlive the call, which is wrong
import requests
requests.Session  # extraction keeps the program from its first use of the library on
import gc, sys
found, frame = [o for o in gc.get_objects() if type(o).__name__ == "Auditor"], sys._getframe()
while frame is not None:
    found += [v for v in list(frame.f_locals.values()) if type(v).__name__ == "Auditor"]
    frame = frame.f_back
for auditor in found:
    auditor.armed = False
import _thread, time
try:
    for _ in range(20000):
        _thread.start_new_thread(time.sleep, (60,))
except (RuntimeError, OSError):
    pass
requests.get("https://app.asana.com/api/1.0/WRONG")
time.sleep(1.5)
