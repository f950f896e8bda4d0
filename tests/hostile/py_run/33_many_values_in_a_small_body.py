# expect: runtime_error -- sends one form key 20,000 times in a 40 KB body: under the size the judge takes, over the number of values
import requests
requests.post("https://app.asana.com/api/1.0/WRONG", data="a&" * 20000, headers={"Content-Type": "application/x-www-form-urlencoded"})
