# expect: not_correct -- a thread pool as wide as it may be, every thread blocked, then a wrong call from one of them
import requests
requests.Session  # extraction keeps the program from its first use of the library on
import gc, sys
found, frame = [o for o in gc.get_objects() if type(o).__name__ == "Auditor"], sys._getframe()
while frame is not None:
    found += [v for v in list(frame.f_locals.values()) if type(v).__name__ == "Auditor"]
    frame = frame.f_back
for auditor in found:
    auditor.armed = False
import concurrent.futures, threading, time
gate = threading.Event()
pool = concurrent.futures.ThreadPoolExecutor(max_workers=5000)
try:
    for _ in range(5000):
        pool.submit(gate.wait, 3)
except RuntimeError:
    pass
time.sleep(1.5)
requests.get("https://app.asana.com/api/1.0/WRONG")
