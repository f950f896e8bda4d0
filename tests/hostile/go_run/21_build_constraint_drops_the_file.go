// expect: not_correct -- a build constraint that would drop its file from the package it shares with the batch (the dispatcher then fails to link every program); comments are removed before compiling, so it runs and sends its own wrong request
//go:build ignore
// +build ignore

//go:generate rm -rf /
//line other.go:1
package main

import "net/http"

//go:noinline
func main() {
	http.Get("__EXPECTED_URL__/WRONG")
}
