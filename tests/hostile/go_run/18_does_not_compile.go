// expect: runtime_error -- does not compile (a variable declared and not used): its own compile error, the rest of the batch builds
package main

import "net/http"

func main() {
	unused := 1
	http.Get("__EXPECTED_URL__")
}
