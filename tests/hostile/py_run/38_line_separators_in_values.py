# expect: not_correct -- sends values holding U+2028, U+2029 and NEL (characters str.splitlines splits at) in a header and in the query, one path segment off: the run directory must stay readable for resume and evaluate
import requests
requests.Session  # extraction keeps the program from its first use of the library on
requests.get("__EXPECTED_URL__/x\u2028y", params={"q": "a\u2028b\u2029c\x85d"},
             headers={"Authorization": "Bearer <token>", "X-Odd": "v\u2028\u2029\x85w"})
