# expect: not_correct -- a JSON body holding an integer beyond the range of a float
import requests
requests.post("https://app.asana.com/api/1.0/WRONG", data='{"name": 1' + "0" * 400 + "}",
              headers={"Content-Type": "application/json"})
