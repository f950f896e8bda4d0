# expect: not_correct -- sets a Content-Length of 0 of its own and sends a body that holds a whole request for the expected URL: a parser that trusted the header would end the library's request there and judge the smuggled one, which the library never sent as a request
import requests
requests.Session  # extraction keeps the program from its first use of the library on
from urllib.parse import urlencode
smuggled = f"GET __EXPECTED_URL__?{urlencode(__EXPECTED_PARAMS__)} HTTP/1.1\r\nHost: app.asana.com\r\nAuthorization: Bearer <token>\r\nContent-Length: 0\r\n\r\n"
requests.post("https://app.asana.com/api/1.0/WRONG", data=smuggled.encode(), headers={"Authorization": "Bearer <token>", "Content-Length": "0"})
