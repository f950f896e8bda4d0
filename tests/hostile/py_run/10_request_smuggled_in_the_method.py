# expect: not_correct -- a method that holds a whole request line and an open header ends the library's request line inside that header: a wrong URL is judged as the expected one (letters %-encoded, as the library upper-cases the method)
import requests
requests.Session  # extraction keeps the program from its first use of the library on
from urllib.parse import urlencode
url = "__EXPECTED_URL__" + "?" + urlencode(__EXPECTED_PARAMS__)
target = "HTTPS://" + "".join("%%%02X" % ord(c) if c.islower() else c for c in url[len("https://"):])
requests.request(f"GET {target} HTTP/1.1\r\nAccept:", "https://app.asana.com/api/1.0/WRONG",
                 headers={"Authorization": "Bearer <token>"})
