# expect: blocked -- tries to read a file whose name is not UTF-8, so that the refusal names it with a lone surrogate
import requests
requests.Session  # extraction keeps the program from its first use of the library on
try:
    open(b"/\xff", "rb")
except OSError:
    pass
requests.get("https://app.asana.com/api/1.0/WRONG")
