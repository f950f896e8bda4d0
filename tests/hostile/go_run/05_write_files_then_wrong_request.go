// expect: not_correct -- writes into the canary folder, /tmp and its own executable's folder (errors ignored), then sends a wrong request
package main

import (
	"net/http"
	"os"
	"path/filepath"
)

func main() {
	os.WriteFile("__CANARY_DIR__/written", []byte("x"), 0o666)
	os.WriteFile("/tmp/written", []byte("x"), 0o666)
	exe, _ := os.Executable()
	os.WriteFile(filepath.Join(filepath.Dir(exe), "planted"), []byte("x"), 0o777)
	os.Mkdir("__CANARY_DIR__/dir", 0o777)
	req, _ := http.NewRequest("GET", "__EXPECTED_URL__/WRONG", nil)
	http.DefaultClient.Do(req)
}
