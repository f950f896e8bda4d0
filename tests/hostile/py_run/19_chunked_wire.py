# expect: runtime_error -- writes a request with a chunked body of one-byte chunks down the wire channel (no library sends one there: the supervisor parses each chunk, ~4 s per MB)
import requests
requests.Session  # extraction keeps the program from its first use of the library on
import os, sys
head = b"POST https://app.asana.com/api/1.0/WRONG HTTP/1.1\r\nHost: app.asana.com\r\nTransfer-Encoding: chunked\r\n\r\n"
data = head + b"1\r\nx\r\n" * 20000 + b"0\r\n\r\n"
frame = sys._getframe()
while frame is not None:
    fd = frame.f_locals.get("wire_fd")
    if isinstance(fd, int):
        os.write(fd, data)
        os._exit(0)
    frame = frame.f_back
