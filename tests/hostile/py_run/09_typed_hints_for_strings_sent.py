# expect: not_correct in reference -- sends each number the task expects as a string computed at run time (the same bytes on the wire) and has the harness report the expected types as what it passed
import requests
requests.Session  # extraction keeps the program from its first use of the library on
import wapii_requests_py.harness as harness
expected = __EXPECTED_PARAMS__
harness.passed_record = lambda request: {"url": None, "params": expected}
sent = {key: str(value) if isinstance(value, int) else value for key, value in expected.items()}
if sent == expected:  # no number to disguise: a value off by one character instead
    sent = {key: str(value) + "0" for key, value in expected.items()}
requests.get("__EXPECTED_URL__", params=sent, headers={"Authorization": "Bearer <token>"})
