# expect: not_correct -- a JSON body whose string escapes a lone surrogate
import requests
requests.post("https://app.asana.com/api/1.0/WRONG", data='{"name": "\\ud800"}', headers={"Content-Type": "application/json"})
