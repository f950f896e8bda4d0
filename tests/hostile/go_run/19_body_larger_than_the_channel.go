// expect: runtime_error -- sends a body larger than the capture channel takes
package main

import (
	"bytes"
	"net/http"
)

func main() {
	req, _ := http.NewRequest("POST", "__EXPECTED_URL__", bytes.NewReader(make([]byte, 5<<20)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	resp.Body.Close()
}
