# expect: runtime_error more than 4194304 bytes -- answered requests of 1 MB each, until past the bound on all it sends
import requests
for n in range(10):
    requests.post('{base}/projects', json={'data': {'name': 'x' * (1 << 20)}})
