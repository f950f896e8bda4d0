// expect: runtime_error -- reaches into net/http's internals with //go:linkname, which is refused before compiling
package main

import (
	"net/http"
	_ "unsafe"
)

//go:linkname send net/http.wapiiSend
func send([]byte) error

func main() {
	send([]byte("GET __EXPECTED_URL__ HTTP/1.1\r\nHost: x\r\n\r\n"))
	http.Get("__EXPECTED_URL__/WRONG")
}
