# expect: runtime_error -- patches the HTTP library so that the programs after it report a forged request
import urllib.request
urllib.request.OpenerDirector.open = lambda self, *a, **k: None
urllib.request.Request.get_full_url = lambda self: "https://evil.example/"
urllib.request.build_opener = lambda *a: None
raise RuntimeError("patched for the next snippets")
