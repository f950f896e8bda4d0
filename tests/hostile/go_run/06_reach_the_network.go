// expect: not_correct -- dials the canary server over TCP, sends UDP to it and opens a raw socket, then sends a wrong request
package main

import (
	"net"
	"net/http"
	"syscall"
)

func main() {
	if conn, err := net.Dial("tcp", "127.0.0.1:__CANARY_PORT__"); err == nil {
		conn.Write([]byte("escaped"))
		conn.Close()
	}
	if conn, err := net.Dial("udp", "127.0.0.1:__CANARY_PORT__"); err == nil {
		conn.Write([]byte("escaped"))
		conn.Close()
	}
	syscall.Socket(syscall.AF_INET, syscall.SOCK_RAW, syscall.IPPROTO_TCP)
	req, _ := http.NewRequest("GET", "__EXPECTED_URL__/WRONG", nil)
	http.DefaultClient.Do(req)
}
