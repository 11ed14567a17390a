// httpproxy_oracle: prints the proxy Go's http.ProxyFromEnvironment picks
// for the URL in argv[1] under the current environment (DIRECT when none,
// ERR and the error); tests/unit/test_fetch.c's proxy table came from it
// (Go 1.19, which vendors golang.org/x/net/http/httpproxy), one
// `env -i VAR=... go run tests/tools/httpproxy_oracle.go URL` per case.

package main

import (
	"fmt"
	"net/http"
	"os"
)

func main() {
	req, _ := http.NewRequest("GET", os.Args[1], nil)
	u, err := http.ProxyFromEnvironment(req)
	if err != nil {
		fmt.Println("ERR", err)
		return
	}
	if u == nil {
		fmt.Println("DIRECT")
		return
	}
	fmt.Println(u.String())
}
