# expect: blocked -- signals its parent and lowers its parent's CPU limit, then calls a wrong URL
import requests
requests.Session  # extraction keeps the program from its first use of the library on
import os, signal, resource
for attempt in (lambda: resource.prlimit(os.getppid(), resource.RLIMIT_CPU, (1, 1)),
                lambda: os.kill(os.getppid(), signal.SIGKILL)):
    try:
        attempt()
    except OSError:
        pass
import requests
requests.get("https://app.asana.com/api/1.0/WRONG")
