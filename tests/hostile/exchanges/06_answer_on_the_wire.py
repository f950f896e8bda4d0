# expect: runtime_error -- writes an answer into its own wire channel, as if it were the server
import os, requests
r = requests.post('{base}/projects', json={'data': {'name': 'Apollo'}})
for fd in range(3, 64):
    try:
        os.write(fd, b'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n')
    except OSError:
        pass
requests.get('{base}/projects/' + r.json()['data']['gid'])
