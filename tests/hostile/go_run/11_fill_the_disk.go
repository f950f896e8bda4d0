// expect: runtime_error -- writes to /tmp and the canary folder until something fails, then panics
package main

import "os"

func main() {
	f, err := os.Create("/tmp/fill")
	if err != nil {
		f, err = os.Create("__CANARY_DIR__/fill")
	}
	if err != nil {
		panic(err)
	}
	chunk := make([]byte, 1<<20)
	for {
		if _, err := f.Write(chunk); err != nil {
			panic(err)
		}
	}
	http.Get("__EXPECTED_URL__") // never reached: the extractor finds a request call
}
