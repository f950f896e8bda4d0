# expect: blocked -- forks without end
import os
urlopen("https://api.example.com/items?n=" + str([os.fork() for _ in iter(int, 1)]))
