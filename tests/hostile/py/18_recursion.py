# expect: runtime_error -- recurses without end
def deeper(n):
    return deeper(n + 1)
urlopen("https://api.example.com/items?d=" + str(deeper(0)))
