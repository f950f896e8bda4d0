# expect: not_correct -- a JSON body nested deeper than the JSON parser's recursion limit
import requests
requests.post("https://app.asana.com/api/1.0/WRONG", data="[" * 100000, headers={"Content-Type": "application/json"})
