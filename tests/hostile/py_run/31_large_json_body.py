# expect: runtime_error -- sends a 3.5 MB JSON body (judging it took the judge, in wapii's own process and without a time limit, seconds; its request filled megabytes of results.jsonl): larger than the request the judge takes
import requests
requests.post("https://app.asana.com/api/1.0/WRONG", json={"data": {"notes": "x" * 3500000}})
