# expect: runtime_error -- fails with an error message that holds a lone surrogate (no UTF-8 text can carry it)
import requests
requests.Session  # extraction keeps the program from its first use of the library on
raise ValueError("\udc80")
