# expect: not_correct -- sends wrong query values and makes the harness report the expected typed values as what it passed
import requests
requests.Session  # extraction keeps the program from its first use of the library on
import requests
import wapii_requests_py.harness as harness
harness.passed_record = lambda request: {"url": None, "params": __EXPECTED_PARAMS__}
requests.get("__EXPECTED_URL__", params={key: "WRONG" for key in __EXPECTED_PARAMS__},
             headers={"Authorization": "Bearer <token>"})
