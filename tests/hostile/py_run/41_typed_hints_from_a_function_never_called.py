# expect: not_correct in reference -- writes the expected call with typed query values in a function it never calls, then sends every number as a string through another name for the same function: the types must come from the call that was sent
import requests
requests.Session  # extraction keeps the program from its first use of the library on
expected = __EXPECTED_PARAMS__
def never():
    requests.get("__EXPECTED_URL__", params=__EXPECTED_PARAMS__, headers={"Authorization": "Bearer <token>"})
sent = {key: str(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else value
        for key, value in expected.items()}
if sent == expected:  # no number to disguise: a value off by one character instead
    sent = {key: str(value) + "0" for key, value in expected.items()}
send = requests.get
send("__EXPECTED_URL__", params=sent, headers={"Authorization": "Bearer <token>"})
