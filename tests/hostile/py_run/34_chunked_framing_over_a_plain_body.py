# expect: not_correct -- sends the expected request with Transfer-Encoding: chunked, which requests sends beside a Content-Length over an unchunked body: a server refuses it
import requests
requests.Session  # extraction keeps the program from its first use of the library on
requests.request("GET", "__EXPECTED_URL__", params=__EXPECTED_PARAMS__, data="x",
                 headers={"Authorization": "Bearer <token>", "Transfer-Encoding": "chunked"})
