# expect: not_correct -- calls the expected URL with a Host header naming another site: the server routes the request to that site, but Host was dropped as the library's own header
import requests
requests.Session  # extraction keeps the program from its first use of the library on
requests.get("__EXPECTED_URL__", params=__EXPECTED_PARAMS__, headers={"Authorization": "Bearer <token>", "Host": "evil.example"})
