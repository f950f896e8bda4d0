// expect: runtime_error -- at compile time, reaches for files outside its batch: a `//go:embed` of the dataset's answer key, a relative import of the batches' directory and an import of a module that is not there; comments are removed (the embed is inert), the compiler sees only the Go root, its own batch and the build cache, and reaches no network: its own compile_error, nothing read, the batch builds
package main

import (
	_ "embed"
	"net/http"

	batches "../../batches"
	fetched "example.com/wapii/not/here"
)

//go:embed __DATASET__
var key string

func main() {
	batches.Leak(key)
	fetched.Leak(key)
	http.Get("__EXPECTED_URL__/extra")
}
