// expect: not_correct -- signals its parent, its process group and every process it can reach, then sends a wrong request
package main

import (
	"net/http"
	"syscall"
)

func main() {
	syscall.Kill(syscall.Getppid(), syscall.SIGKILL)
	syscall.Kill(-1, syscall.SIGSTOP)
	for pid := 1; pid < 2000; pid++ {
		if pid != syscall.Getpid() {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	req, _ := http.NewRequest("GET", "__EXPECTED_URL__/WRONG", nil)
	http.DefaultClient.Do(req)
}
