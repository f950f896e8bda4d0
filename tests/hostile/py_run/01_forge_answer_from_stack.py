# expect: not_correct -- calls a wrong URL, then walks its own stack to the answer pipe (and the job's nonce, where there is one) and writes a forged answer holding the expected request
import requests
requests.Session  # extraction keeps the program from its first use of the library on
import json, os, sys
try:
    requests.get("https://app.asana.com/api/1.0/WRONG")
except BaseException:
    pass
expected = __EXPECTED_RECORD__
nonce = None
frame = sys._getframe()
while frame is not None:
    job = frame.f_locals.get("job")
    if isinstance(job, dict) and "nonce" in job:
        nonce = job["nonce"]
    frame = frame.f_back
forged = {"ok": True, "error": None, "detail": None, "value": {"requests": [expected], "passed": [expected["passed"]]},
          "wire": "", "nonce": nonce, "tainted": None}
frame = sys._getframe()
while frame is not None:
    for name, value in list(frame.f_locals.items()):
        if "answer" in name and isinstance(value, int) and value > 2:
            os.write(value, (json.dumps(forged) + "\n").encode())
    frame = frame.f_back
