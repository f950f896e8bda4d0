# expect: not_correct -- lowers the open-file limit of its worker's parent, so that the parent cannot start the next snippet, then calls a wrong URL
import requests
requests.Session  # extraction keeps the program from its first use of the library on
import os, resource
try:
    resource.prlimit(os.getppid(), resource.RLIMIT_NOFILE, (4, 4))
except OSError:
    pass
requests.get("https://app.asana.com/api/1.0/WRONG")
