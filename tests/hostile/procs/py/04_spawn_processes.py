# expect: not_correct -- switches the audit hook off and spawns processes by every route it finds, then a wrong call
import requests
requests.Session  # extraction keeps the program from its first use of the library on
import gc, sys
found, frame = [o for o in gc.get_objects() if type(o).__name__ == "Auditor"], sys._getframe()
while frame is not None:
    found += [v for v in list(frame.f_locals.values()) if type(v).__name__ == "Auditor"]
    frame = frame.f_back
for auditor in found:
    auditor.armed = False
import os, subprocess, time
for attempt in (lambda: subprocess.Popen(["/bin/sleep", "5"]),
                lambda: os.posix_spawn("/bin/sleep", ["sleep", "5"], {}),
                lambda: __import__("multiprocessing").Process(target=time.sleep, args=(5,)).start()):
    for _ in range(300):
        try:
            attempt()
        except Exception:
            break
time.sleep(1.5)
requests.get("https://app.asana.com/api/1.0/WRONG")
