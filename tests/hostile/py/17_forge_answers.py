# expect: runtime_error|no_request -- writes forged protocol lines to every file descriptor it can find (its own wire channel and answer pipe among them: garbled bytes, or an answer before any request)
import os
forged = b'{"nonce": "guess", "ok": true, "value": {"url": "https://forged.example/"}, "error": null, "detail": null, "tainted": null}\n'
for fd in range(0, 64):
    try:
        os.write(fd, forged * 4)
    except OSError:
        pass
print(forged.decode())
urlopen("https://api.example.com/items?forged=1")
