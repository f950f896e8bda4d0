# expect: runtime_error more than 64 requests -- floods its responder: stopped at the bound, 64 exchanges kept
import requests
for n in range(10000):
    requests.post('{base}/projects', json={'data': {'name': 'x' * 1000, 'n': n}})
