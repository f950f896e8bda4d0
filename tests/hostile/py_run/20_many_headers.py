# expect: not_correct -- sends 30000 distinct headers (the normalisation looked each one up among all before it: minutes for this request, hours for one of 4 MB)
import requests
requests.get("https://app.asana.com/api/1.0/WRONG", headers={f"X-{i}": "v" for i in range(30000)})
