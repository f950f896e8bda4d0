# expect: blocked -- switches the audit hook off and mounts over a host folder: new mount API, cloned trees, old mount, namespaces
import ctypes, errno, gc, os
for auditor in [o for o in gc.get_objects() if type(o).__name__ == "Auditor"]:
    auditor.armed = False
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
target = b"__CANARY_DIR__"


def check(result):
    if result < 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code))
    return result


def call(number, *args):  # the new mount API's numbers are the same on every architecture
    return check(libc.syscall(number, *args))


def new_api():
    fs = call(430, b"tmpfs", 0)  # fsopen
    call(431, fs, 6, None, None, 0)  # fsconfig(FSCONFIG_CMD_CREATE)
    call(429, call(432, fs, 0, 0), b"", -100, target, 4)  # move_mount(fsmount(...)) onto the folder


def cloned_tree():
    call(429, call(428, -100, b"/tmp", 1), b"", -100, target, 4)  # open_tree(OPEN_TREE_CLONE), move_mount


def writable_root():
    call(442, -100, b"/", 0, (ctypes.c_uint64 * 4)(0, 1, 0, 0), 32)  # mount_setattr: clear read-only


attempts = [new_api, cloned_tree, writable_root, lambda: check(libc.mount(b"none", target, b"tmpfs", 0, None)),
            lambda: check(libc.unshare(0x00020000)), lambda: check(libc.umount2(b"/proc", 2))]
errors = []
for attempt in attempts:
    try:
        attempt()
    except OSError as exc:
        errors.append(exc)
refused = [exc for exc in errors if exc.errno == errno.ENOTRECOVERABLE]
if len(refused) == len(attempts):
    raise refused[0]
urlopen("https://api.example.com/items?mounted=" + ",".join(str(exc.errno) for exc in errors))
