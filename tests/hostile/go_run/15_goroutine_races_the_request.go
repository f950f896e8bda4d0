// expect: not_correct -- sends a wrong request while goroutines try to send the expected one a moment later: the first request sent is judged and ends the program
package main

import (
	"net/http"
	"time"
)

func main() {
	for i := 0; i < 8; i++ {
		go func() {
			time.Sleep(20 * time.Millisecond)
			http.Get("__EXPECTED_URL__")
		}()
	}
	req, _ := http.NewRequest("DELETE", "__EXPECTED_URL__/WRONG", nil)
	http.DefaultClient.Do(req)
	time.Sleep(time.Second)
}
