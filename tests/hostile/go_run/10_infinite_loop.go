// expect: runtime_error -- loops forever on every core
package main

func main() {
	for i := 0; i < 4; i++ {
		go func() {
			for {
			}
		}()
	}
	for {
	}
	http.Get("__EXPECTED_URL__") // never reached: the extractor finds a request call
}
