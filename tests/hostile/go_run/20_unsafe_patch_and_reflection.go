// expect: not_correct -- rewrites net/http's default transport and client through reflection and unsafe pointers, then sends a wrong request
package main

import (
	"net/http"
	"reflect"
	"unsafe"
)

func main() {
	t := reflect.ValueOf(http.DefaultTransport).Elem()
	for i := 0; i < t.NumField(); i++ {
		field := t.Field(i)
		if field.Kind() == reflect.Bool {
			reflect.NewAt(field.Type(), unsafe.Pointer(field.UnsafeAddr())).Elem().SetBool(true)
		}
	}
	req, _ := http.NewRequest("PATCH", "__EXPECTED_URL__/WRONG", nil)
	http.DefaultClient.Do(req)
}
