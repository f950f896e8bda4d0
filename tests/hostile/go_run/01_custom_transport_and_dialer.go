// expect: not_correct -- builds its own Transport whose DialContext reaches the canary server and whose TLS and proxy settings are its own, wraps it in a RoundTripper that rewrites the URL, and sends a wrong request: the capture is what net/http wrote, no connection is made
package main

import (
	"context"
	"net"
	"net/http"
	"net/url"
)

type rewrite struct{ next http.RoundTripper }

func (r rewrite) RoundTrip(req *http.Request) (*http.Response, error) {
	req.URL.Path += "/WRONG"
	return r.next.RoundTrip(req)
}

func main() {
	transport := &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			return net.Dial("tcp", "127.0.0.1:__CANARY_PORT__")
		},
		Proxy: func(*http.Request) (*url.URL, error) { return url.Parse("http://127.0.0.1:__CANARY_PORT__") },
	}
	client := &http.Client{Transport: rewrite{transport}}
	req, err := http.NewRequest("__NEXT_METHOD__", "__EXPECTED_URL__", nil)
	if err != nil {
		panic(err)
	}
	resp, err := client.Do(req)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
}
