# expect: not_correct -- sends one query key 60000 times (decoding the query copied the list of values for each: a minute for this request, hours for one of 4 MB)
import requests
requests.get("https://app.asana.com/api/1.0/WRONG?" + "&".join(["a=1"] * 60000))
