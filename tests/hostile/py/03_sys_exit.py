# expect: exited -- ends the interpreter before the request
import sys
urlopen("https://api.example.com/items?x=" + str(sys.exit(0)))
