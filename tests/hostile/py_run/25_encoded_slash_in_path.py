# expect: not_correct in wire -- writes the path's last slash as %2F: a server sees one segment, but the decoded URL is the expected one
import requests
requests.Session  # extraction keeps the program from its first use of the library on
url = "__EXPECTED_URL__"
cut = url.rindex("/")
requests.get(url[:cut] + "%2F" + url[cut + 1:], params=__EXPECTED_PARAMS__, headers={"Authorization": "Bearer <token>"})
