# expect: blocked -- writes a file on the host
urlopen("https://api.example.com/items?w=" + str(open("__CANARY_DIR__/py-write.txt", "w").write("pwned")))
