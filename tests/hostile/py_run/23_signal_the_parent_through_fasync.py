# expect: blocked -- has the kernel send SIGKILL to its worker's parent through a pipe's owner (F_SETOWN, F_SETSIG, O_ASYNC), which no kill() filter sees
import requests
requests.Session  # extraction keeps the program from its first use of the library on
import fcntl, os
F_SETSIG = 10
r, w = os.pipe()
fcntl.fcntl(r, fcntl.F_SETOWN, os.getppid())
fcntl.fcntl(r, F_SETSIG, 9)
fcntl.fcntl(r, fcntl.F_SETFL, fcntl.fcntl(r, fcntl.F_GETFL) | os.O_ASYNC)
os.write(w, b"x")
requests.get("https://app.asana.com/api/1.0/WRONG")
