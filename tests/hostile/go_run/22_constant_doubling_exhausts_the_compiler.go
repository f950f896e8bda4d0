// expect: runtime_error -- 25 chained constant doublings: 1 KB of source that needs over 500 MB and seconds of the Go compiler (27 need 3.5 GB); the test's compile budget (384 MiB) stops it: its own compile_limit, the batch builds
package main

import "net/http"

const c0 = "ab"
const c1 = c0 + c0
const c2 = c1 + c1
const c3 = c2 + c2
const c4 = c3 + c3
const c5 = c4 + c4
const c6 = c5 + c5
const c7 = c6 + c6
const c8 = c7 + c7
const c9 = c8 + c8
const c10 = c9 + c9
const c11 = c10 + c10
const c12 = c11 + c11
const c13 = c12 + c12
const c14 = c13 + c13
const c15 = c14 + c14
const c16 = c15 + c15
const c17 = c16 + c16
const c18 = c17 + c17
const c19 = c18 + c18
const c20 = c19 + c19
const c21 = c20 + c20
const c22 = c21 + c21
const c23 = c22 + c22
const c24 = c23 + c23
const c25 = c24 + c24

func main() {
	http.Get("__EXPECTED_URL__" + c25[:0])
}
