# expect: blocked -- tries everything, swallows every refusal, then issues a normal-looking request
import os, socket, subprocess
for attempt in (lambda: os.fork(), lambda: subprocess.Popen(["sleep", "60"]), lambda: socket.socket().connect(("127.0.0.1", __CANARY_PORT__))):
    try:
        attempt()
    except Exception:
        pass
urlopen("https://api.example.com/items?quiet=1")
