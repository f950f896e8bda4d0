# expect: not_correct in reference -- passes each query value with the wrong type (50 as '50', '778899' as 778899), which sends the expected bytes, and has the harness report the expected types as what it passed
import requests
requests.Session  # extraction keeps the program from its first use of the library on
import wapii_requests_py.harness as harness
expected = __EXPECTED_PARAMS__
harness.passed_record = lambda request: {"url": None, "params": expected}
flipped = {key: str(value) if isinstance(value, int) else int(value) if str(value).isdigit() else value
           for key, value in expected.items()}
requests.get("__EXPECTED_URL__", params=flipped, headers={"Authorization": "Bearer <token>"})
