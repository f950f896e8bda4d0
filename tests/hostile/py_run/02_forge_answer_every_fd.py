# expect: not_correct -- writes a forged answer into every file descriptor it can find, the wire channel too
import requests
requests.Session  # extraction keeps the program from its first use of the library on
import json, os
line = (json.dumps({"ok": True, "error": None, "detail": None, "value": {"passed": [{}]}}) + "\n").encode()
for fd in range(3, 256):
    try:
        os.write(fd, line)
    except OSError:
        pass
import requests
requests.get("https://app.asana.com/api/1.0/WRONG")
