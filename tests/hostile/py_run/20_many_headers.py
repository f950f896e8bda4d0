# expect: not_correct -- sends 100000 distinct headers (the normalisation looked each one up among all before it: hours for a request of this size)
import requests
requests.get("https://app.asana.com/api/1.0/WRONG", headers={f"X-{i}": "v" for i in range(100000)})
