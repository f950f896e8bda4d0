# expect: not_correct -- sends the expected request with a Content-Length its (empty) body does not have: a server waits for bytes that never come, or reads the next request as this body
import requests
requests.Session  # extraction keeps the program from its first use of the library on
prepared = requests.Request("GET", "__EXPECTED_URL__", params=__EXPECTED_PARAMS__,
                            headers={"Authorization": "Bearer <token>"}).prepare()
prepared.headers["Content-Length"] = "10"
requests.Session().send(prepared)
