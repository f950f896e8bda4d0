// expect: runtime_error -- runs a shell that writes a canary file and starts a process carrying the marker; exec of anything but its own executable is refused
package main

import (
	"net/http"
	"os/exec"
)

func main() {
	out, err := exec.Command("/bin/sh", "-c", "touch __CANARY_DIR__/exec; sleep 30 # __MARKER__").CombinedOutput()
	if err != nil {
		panic(err)
	}
	panic(string(out))
	http.Get("__EXPECTED_URL__") // never reached: the extractor finds a request call
}
