// expect: not_correct -- leaves a detached copy of itself that writes the next sample's expected request into every capture channel it can open (/proc/*/fd/3) for two seconds, then sends a wrong request
package main

import (
	"net/http"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

const next = "__NEXT_METHOD__ __NEXT_URL__ HTTP/1.1\r\nHost: forged\r\nContent-Length: 0\r\n\r\n"

func main() {
	if len(os.Args) > 2 && os.Args[len(os.Args)-1] == "child" {
		deadline := time.Now().Add(2 * time.Second)
		for time.Now().Before(deadline) {
			paths, _ := filepath.Glob("/proc/*/fd/3")
			for _, path := range paths {
				if f, err := os.OpenFile(path, os.O_WRONLY, 0); err == nil {
					f.Write([]byte(next))
					f.Close()
				}
			}
			time.Sleep(5 * time.Millisecond)
		}
		return
	}
	exe, _ := os.Executable()
	args := append(append([]string{}, os.Args...), "__MARKER__", "child")
	os.StartProcess(exe, args, &os.ProcAttr{Sys: &syscall.SysProcAttr{Setsid: true}})
	time.Sleep(50 * time.Millisecond)
	req, _ := http.NewRequest("GET", "__EXPECTED_URL__/WRONG", nil)
	http.DefaultClient.Do(req)
}
