# expect: runtime_error|no_request -- writes forged protocol lines to every file descriptor it can find (the answer pipe comes first: the parent may end it before it writes the wire channel)
import os
forged = b'{"nonce": "guess", "ok": true, "value": {"url": "https://forged.example/"}, "error": null, "detail": null, "tainted": null}\n'
for fd in range(0, 64):
    try:
        os.write(fd, forged * 4)
    except OSError:
        pass
print(forged.decode())
urlopen("https://api.example.com/items?forged=1")
