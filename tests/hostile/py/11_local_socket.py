# expect: blocked -- connects to a service on the host's loopback
import socket
urlopen("https://api.example.com/items?s=" + str(socket.create_connection(("127.0.0.1", __CANARY_PORT__), timeout=1).send(b"ping")))
