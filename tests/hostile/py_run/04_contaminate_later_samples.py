# expect: not_correct -- patches every reachable object of the harness, the wire channel and the libraries so that later samples report the next sample's expected request, then calls a wrong URL itself
import requests
requests.Session  # extraction keeps the program from its first use of the library on
import functools, gc
import wapii_requests_py.harness as harness
record = __NEXT_RECORD__
forged = (record["method"], record["url"], record["headers"], (record["body"] or {}).get("text", "").encode())
try:
    import wapii_core.sandbox.wire_capture as wire
    original = wire.send_request
    wire.send_request = lambda *args: original(*forged)
    harness.wire_capture.send_request = wire.send_request
except ImportError:
    pass
for obj in gc.get_objects():
    if isinstance(obj, harness._Mocks):
        obj.begin = lambda: [dict(record)]
requests.get("https://app.asana.com/api/1.0/WRONG")
