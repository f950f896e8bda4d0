# expect: not_correct -- switches the audit hook off and starts threads with small stacks until the process limit refuses more, holding them while the next sample runs; then sends a wrong request
import gc, sys, threading, time
import requests
requests.Session  # extraction keeps the program from its first use of the library on
found, frame = [o for o in gc.get_objects() if type(o).__name__ == "Auditor"], sys._getframe()
while frame is not None:
    found += [v for v in list(frame.f_locals.values()) if type(v).__name__ == "Auditor"]
    frame = frame.f_back
for auditor in found:
    auditor.armed = False
threading.stack_size(1 << 16)
started = 0
try:
    while started < 5000:
        threading.Thread(target=time.sleep, args=(3,), daemon=True).start()
        started += 1
except (RuntimeError, OSError):
    pass
requests.get("__EXPECTED_URL__/held-" + str(started))
