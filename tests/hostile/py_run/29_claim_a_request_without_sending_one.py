# expect: not_correct -- counts a request as sent in the harness's own record, replaces the event loop's run and the library's send so that nothing reaches the wire, and ends quietly: only the bytes on the wire make a request
import requests
requests.Session  # extraction keeps the program from its first use of the library on
import asyncio
import wapii_requests_py.harness as harness
for name in dir(harness):
    target = getattr(harness, name)
    if hasattr(target, "sent"):
        try:
            target.sent = 1
        except Exception:
            pass
    if callable(target) and hasattr(target, "sent") is False and name.startswith("_capture"):
        try:
            target().sent = 1
        except Exception:
            pass
asyncio.run = lambda coroutine, **kw: coroutine.close()
requests.get("https://app.asana.com/api/1.0/WRONG", params=__EXPECTED_PARAMS__)
