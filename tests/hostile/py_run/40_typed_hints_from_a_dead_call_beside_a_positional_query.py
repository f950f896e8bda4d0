# expect: not_correct in reference -- writes the expected call with typed query values under `if False:` (never made), then sends every number as a string, passing the query positionally (no `params=` for the source to compare): the types must come from the call that was sent
import requests
requests.Session  # extraction keeps the program from its first use of the library on
expected = __EXPECTED_PARAMS__
if False:
    requests.get("__EXPECTED_URL__", params=__EXPECTED_PARAMS__, headers={"Authorization": "Bearer <token>"})
sent = {key: str(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else value
        for key, value in expected.items()}
if sent == expected:  # no number to disguise: a value off by one character instead
    sent = {key: str(value) + "0" for key, value in expected.items()}
requests.get("__EXPECTED_URL__", sent, headers={"Authorization": "Bearer <token>"})
