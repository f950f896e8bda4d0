# expect: timeout -- loops forever while computing the call's arguments
urlopen("https://api.example.com/items?n=" + str(sum(iter(int, 1))))
