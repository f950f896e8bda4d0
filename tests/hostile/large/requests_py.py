# A 3.5 MB JSON body, then a form of 400,000 keys (3.9 MB), then 20,000 repeated keys in a 40 KB form. Last, a call that throws an error whose message is 3 MB.
import requests
requests.post("https://app.asana.com/api/1.0/tasks", json={"data": {"notes": "x" * 3500000}})
requests.post("https://app.asana.com/api/1.0/tasks", data="&".join("k%d=1" % i for i in range(400000)), headers={"Content-Type": "application/x-www-form-urlencoded"})
requests.post("https://app.asana.com/api/1.0/tasks", data="a&" * 20000, headers={"Content-Type": "application/x-www-form-urlencoded"})
requests.get("https://app.asana.com/api/1.0/tasks", params=(_ for _ in ()).throw(ValueError("x" * 3000000)))
