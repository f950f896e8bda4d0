# expect: runtime_error -- floods the worker's output with an enormous captured request
urlopen(Request("https://api.example.com/items", headers={"X-Huge": "x" * 6_000_000}))
