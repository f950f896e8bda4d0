# expect: runtime_error -- writes more bytes down the wire channel than it takes
import requests
requests.Session  # extraction keeps the program from its first use of the library on
import os, sys
frame = sys._getframe()
while frame is not None:
    fd = frame.f_locals.get("wire_fd")
    if isinstance(fd, int):
        chunk = b"x" * (1 << 20)
        for _ in range(6):
            os.write(fd, chunk)
    frame = frame.f_back
import requests
requests.get("https://app.asana.com/api/1.0/WRONG")
