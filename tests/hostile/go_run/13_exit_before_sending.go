// expect: not_correct -- ends its process before sending anything
package main

import (
	"net/http"
	"os"
)

func main() {
	os.Exit(0)
	http.Get("__EXPECTED_URL__")
}
