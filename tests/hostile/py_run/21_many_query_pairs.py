# expect: not_correct -- sends one query key 200000 times (decoding the query copied the list of values for each: an hour for a request of this size)
import requests
requests.get("https://app.asana.com/api/1.0/WRONG?" + "&".join(["a=1"] * 200000))
