// expect: runtime_error -- starts a million goroutines and allocates memory until it fails
package main

import (
	"net/http"
	"time"
)

func main() {
	for i := 0; i < 1000000; i++ {
		go func() { time.Sleep(time.Hour) }()
	}
	var hoard [][]byte
	for {
		chunk := make([]byte, 64<<20)
		for j := range chunk {
			chunk[j] = 1
		}
		hoard = append(hoard, chunk)
	}
	http.Get("__EXPECTED_URL__") // never reached: the extractor finds a request call
}
