// expect: runtime_error -- writes bytes that are no HTTP request down the capture channel, then sends a request through net/http
package main

import (
	"net/http"
	"os"
)

func main() {
	os.NewFile(3, "wire").Write([]byte("\x00\x01 not a request\r\n\r\n"))
	req, _ := http.NewRequest("GET", "__EXPECTED_URL__", nil)
	http.DefaultClient.Do(req)
}
