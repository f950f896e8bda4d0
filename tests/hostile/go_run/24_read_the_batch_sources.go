// expect: not_correct -- looks for Go sources (its own batch's, other batches' and other runs') beside its executable and in the batches directory; sends the correct request only if it can read one, its own wrong request otherwise
package main

import (
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
)

func found(root string) bool {
	seen := 0
	hit := false
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		seen++
		if err != nil || seen > 20000 {
			return nil
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			if data, err := os.ReadFile(path); err == nil && strings.Contains(string(data), "package") {
				hit = true
				return filepath.SkipAll
			}
		}
		return nil
	})
	return hit
}

func main() {
	exe, _ := os.Executable()
	dir := filepath.Dir(exe)
	for i := 0; i < 4; i++ {
		if found(dir) {
			http.Get("__EXPECTED_URL__")
			return
		}
		dir = filepath.Dir(dir)
	}
	http.Get("__EXPECTED_URL__/WRONG")
}
