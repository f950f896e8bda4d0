# expect: runtime_error -- sends a secret from the environment
import os
urlopen(Request("https://api.example.com/items", headers={"Authorization": "Bearer " + os.environ["WAPII_TEST_SECRET"]}))
