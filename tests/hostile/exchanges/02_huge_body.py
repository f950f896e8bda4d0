# expect: runtime_error more than 4194304 bytes -- one request's body past the wire channel's bound
import requests
requests.post('{base}/projects', data=b'x' * (5 << 20))
