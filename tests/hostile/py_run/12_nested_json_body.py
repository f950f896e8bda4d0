# expect: not_correct -- a JSON body that parses but is nested deeper than the judge and the result store recurse
import requests
requests.post("https://app.asana.com/api/1.0/WRONG", data='{"name": ' + "[" * 600 + "]" * 600 + "}",
              headers={"Content-Type": "application/json"})
