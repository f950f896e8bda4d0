# expect: any -- writes forged protocol lines (answers for itself, a job's end, relayed bytes) to every descriptor it holds, then reads back a secret
import json, os, base64, requests
fake = b'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}'
lines = b''.join(json.dumps(m).encode() + b'\n' for m in [
    {'id': n, 'reply': base64.b64encode(fake).decode()} for n in range(8)] + [
    {'id': n, 'sent': base64.b64encode(b'GET https://app.example.com/api/1.0/projects/SECRET HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n').decode()} for n in range(8)])
for fd in range(0, 64):
    try:
        os.write(fd, lines)
    except OSError:
        pass
r = requests.get('{base}/projects/SECRET-guess')
assert r.status_code == 404, r.status_code
