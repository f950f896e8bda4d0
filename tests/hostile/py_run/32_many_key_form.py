# expect: runtime_error -- sends a form body of 400,000 keys (3.9 MB: judging it took over 10 s and wrote 13 MB to results.jsonl): larger than the request the judge takes
import requests
requests.post("https://app.asana.com/api/1.0/WRONG", data="&".join("k%d=1" % i for i in range(400000)), headers={"Content-Type": "application/x-www-form-urlencoded"})
