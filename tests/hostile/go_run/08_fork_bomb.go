// expect: runtime_error -- starts copies of its own executable (the one program it may run), each starting more, carrying the marker
package main

import (
	"net/http"
	"os"
	"time"
)

func main() {
	exe, _ := os.Executable()
	for i := 0; i < 100000; i++ {
		os.StartProcess(exe, []string{exe, os.Args[len(os.Args)-1], "__MARKER__"}, &os.ProcAttr{})
	}
	time.Sleep(time.Hour)
	http.Get("__EXPECTED_URL__") // never reached: the extractor finds a request call
}
