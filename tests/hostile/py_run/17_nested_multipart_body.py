# expect: not_correct -- a multipart body nested deeper than the e-mail parser recurses
import requests
requests.Session  # extraction keeps the program from its first use of the library on
body = "".join(f"--b{i}\r\nContent-Type: multipart/mixed; boundary=b{i + 1}\r\n\r\n" for i in range(3000))
requests.post("https://app.asana.com/api/1.0/WRONG", data=body, headers={"Content-Type": "multipart/form-data; boundary=b0"})
