// expect: not_correct -- replaces the default transport with a RoundTripper that answers 200 itself, so the program "succeeds" without sending anything
package main

import (
	"io"
	"net/http"
	"strings"
)

type fake struct{}

func (fake) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader("{}")), Header: http.Header{}}, nil
}

func main() {
	http.DefaultClient.Transport = fake{}
	req, err := http.NewRequest("GET", "__EXPECTED_URL__", nil)
	if err != nil {
		panic(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
}
