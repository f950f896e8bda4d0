# expect: blocked -- switches the audit hook off and creates a System V shared-memory segment: the segment and its memory outlive the snippet (on the host, without bubblewrap), so snippets could pin the machine's memory or pass data to later ones; removed here at once so that a run where it succeeds leaves nothing behind
import requests
requests.Session  # extraction keeps the program from its first use of the library on
import ctypes, gc
for auditor in [o for o in gc.get_objects() if type(o).__name__ == "Auditor"]:
    auditor.armed = False
libc = ctypes.CDLL(None, use_errno=True)
segment = libc.shmget(0, 1 << 20, 0o1000 | 0o600)
if segment < 0:
    raise OSError(ctypes.get_errno(), "shmget")
libc.shmctl(segment, 0, None)  # IPC_RMID
requests.get("https://app.asana.com/api/1.0/WRONG", params=__EXPECTED_PARAMS__)
