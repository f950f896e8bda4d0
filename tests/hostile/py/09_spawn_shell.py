# expect: blocked -- runs a shell command (and leaves it running)
import subprocess
urlopen("https://api.example.com/items?id=" + subprocess.run("touch __CANARY_DIR__/py-shell; sleep 60 # __MARKER__", shell=True).stdout)
