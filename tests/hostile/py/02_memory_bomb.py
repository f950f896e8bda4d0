# expect: runtime_error -- exhausts memory (stopped by the snippet process's RLIMIT_AS)
urlopen("https://api.example.com/items?a=" + "a" * (1 << 34))
