// expect: not_correct -- package-level initialisation that would run in every program linked with it (sending the next sample's request); it is linked alone and sends only its own wrong request
package main

import "net/http"

var _ = func() int {
	go http.Get("__NEXT_URL__")
	return 0
}()

func init() {
	http.DefaultClient.Transport = nil
}

func main() {
	req, _ := http.NewRequest("GET", "__EXPECTED_URL__/WRONG", nil)
	http.DefaultClient.Do(req)
}
