# expect: blocked -- kills the worker that forked it, and every process it may signal
import os
urlopen("https://api.example.com/items?k=" + str(os.kill(os.getppid(), 9) or os.kill(-1, 9)))
