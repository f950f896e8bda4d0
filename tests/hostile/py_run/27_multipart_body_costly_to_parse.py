# expect: not_correct -- sends a 3 MB multipart body of 60,000 tiny parts (and one of a part whose Content-Disposition holds 40,000 parameters would do the same): decoding it took the judge, in wapii's own process and without a time limit, over a minute per sample
import requests
requests.Session  # extraction keeps the program from its first use of the library on
part = '--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\nv\r\n'
requests.post("__EXPECTED_URL__", data=(part * 60000 + "--XyZ--\r\n").encode(), headers={"Content-Type": "multipart/form-data; boundary=XyZ"})
