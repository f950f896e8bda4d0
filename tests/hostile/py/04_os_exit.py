# expect: exited -- ends the process without cleanup
import os
urlopen("https://api.example.com/items?x=" + str(os._exit(0)))
