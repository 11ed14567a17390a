The built-in hashicorp/http data source against a local server
(tests/http/http_ds_server.py): GET, POST with a body and headers, HEAD,
response headers as Go's Header map, a 404 that is no error, TLS with
ca_cert_pem from the test CA, a wrong CA refused, the host's trust anchors
(SSL_CERT_FILE), insecure, retries and go-retryablehttp's give-up error,
a timeout, proxies from HTTP_PROXY / http_proxy with NO_PROXY, and
upstream's validation messages.

  $ sh $TESTDIR/start.sh
  $ cairn apply -auto-approve -no-color > out; echo "exit $?"
  exit 0
  $ sed -n '/^Outputs/,$p' out
  Outputs:
  
  get = [
    200,
    "1.0.0",
    "1.0.0",
    "MS4wLjA=",
    "text/plain",
    "foobar",
    "1, 2",
    true,
  ]
  head = [
    200,
    "",
    "1, 2",
  ]
  missing = [
    404,
    "",
  ]
  post = <<EOT
  POST
  Content-Type: application/json
  Host: 127.0.0.1:* (glob)
  User-Agent: Go-http-client/1.1
  X-Token: abc
  
  {"hello":"edge"}
  EOT
  retry = [
    200,
    "ok",
  ]
  secret = <sensitive>
  tls = [
    200,
    "1.0.0",
  ]
  $ cairn plan -detailed-exitcode -no-color > /dev/null; echo "exit $?"
  exit 0

The state keeps the response (the sensitive copy only where asked for):

  $ cairn state show data.http.secret | grep -E 'sensitive_response_body|status_code'
      sensitive_response_body = (sensitive value)
      status_code             = 200

A CA that did not sign the server's certificate is refused, without a
retry (go-retryablehttp does not retry certificate errors):

  $ cp wrongca.tf.txt main.tf
  $ cairn plan > /dev/null 2>&1; echo "exit $?"
  exit 1
  $ cairn plan -no-color 2>&1 | sed -n '/^Error/,$p' | sed "s/:$(cat tls_port)/:TLSPORT/g"
  Error: Error making request
  
    with data.http.wrong,
    on main.tf line 1, in data "http" "wrong":
     1: data "http" "wrong" {
  
  Error making request: GET https://localhost:TLSPORT/200 giving up after 1
  attempt(s): Get "https://localhost:TLSPORT/200": tls: failed to verify
  certificate: x509: certificate signed by unknown authority

Without ca_cert_pem the host's trust anchors apply, as for remote
providers: SSL_CERT_FILE names them here.

  $ cp hostca.tf.txt main.tf
  $ SSL_CERT_FILE=certs/ca.crt cairn apply -auto-approve -no-color | sed -n '/^Outputs/,$p'
  Outputs:
  
  host = "1.0.0"
  $ SSL_CERT_FILE=certs/ca2.crt cairn plan -no-color 2>&1 | grep -c 'certificate signed by unknown authority'
  1
  $ cp insecure.tf.txt main.tf
  $ cairn apply -auto-approve -no-color | sed -n '/^Outputs/,$p'
  Outputs:
  
  insecure = 200

Mutual TLS: the third server requires a client certificate signed by the
test CA.  With one it answers; without one the handshake is refused; a key
that does not belong to the certificate is refused before any request,
with Go's words:

  $ cp mtls.tf.txt main.tf
  $ cairn apply -auto-approve -no-color | sed -n '/^Outputs/,$p'
  Outputs:
  
  mtls = [
    200,
    "1.0.0",
  ]
  $ cp nocert.tf.txt main.tf
  $ cairn plan > /dev/null 2>&1; echo "exit $?"
  exit 1
  $ cairn plan -no-color 2>&1 | grep -c '^Error: Error making request'
  1
  $ cp badkey.tf.txt main.tf
  $ cairn plan -no-color 2>&1 | sed -n '/^Error/,$p'
  Error: error creating x509 key pair
  
    with data.http.badkey,
    on main.tf line 1, in data "http" "badkey":
     1: data "http" "badkey" {
  
  error creating x509 key pair from provided pem blocks
  
  Error: tls: private key does not match public key

A 5xx answer is retried and then an error, as go-retryablehttp gives up
(no status below 500 is an error, 429 aside):

  $ cp giveup.tf.txt main.tf
  $ cairn plan > /dev/null 2>&1; echo "exit $?"
  exit 1
  $ cairn plan -no-color 2>&1 | sed -n '/^Error/,$p' | sed "s/:$(cat port)/:PORT/g"
  Error: Error making request
  
    with data.http.giveup,
    on main.tf line 1, in data "http" "giveup":
     1: data "http" "giveup" {
  
  Error making request: GET http://127.0.0.1:PORT/fail/9/g1 giving up after 2
  attempt(s): unexpected HTTP status 502 Bad Gateway
  
  Error: Error making request
  
    with data.http.broken,
    on main.tf line 9, in data "http" "broken":
     9: data "http" "broken" {
  
  Error making request: GET http://127.0.0.1:PORT/always500 giving up after 1
  attempt(s): unexpected HTTP status 500 Internal Server Error

Two plans, each one try and one retry:

  $ curl -s http://127.0.0.1:$(cat port)/count/g1; echo
  4

A timeout:

  $ cp timeout.tf.txt main.tf
  $ cairn plan > /dev/null 2>&1; echo "exit $?"
  exit 1
  $ cairn plan -no-color 2>&1 | sed -n '/^Error/,$p' | sed "s/:$(cat port)/:PORT/g"
  Error: Error making request
  
    with data.http.slow,
    on main.tf line 1, in data "http" "slow":
     1: data "http" "slow" {
  
  request exceeded the specified timeout: 200ms, err: GET
  http://127.0.0.1:PORT/sleep/3000 giving up after 1 attempt(s): Get
  "http://127.0.0.1:PORT/sleep/3000": context deadline exceeded
  (Client.Timeout exceeded while awaiting headers)

Proxies: upper-case HTTP_PROXY (which libcurl alone would ignore) and
lower-case http_proxy; NO_PROXY exempts the host (the name then does not
resolve); loopback addresses never go through a proxy (the main
configuration above ran with no proxy, and runs again with one):

  $ cp proxy.tf.txt main.tf
  $ HTTP_PROXY=127.0.0.1:$(cat port) cairn apply -auto-approve -no-color | sed -n '/^Outputs/,$p'
  Outputs:
  
  proxied = [
    "proxied GET http://cairn-proxy-test.invalid/doc",
    "yes",
  ]
  $ http_proxy=http://127.0.0.1:$(cat port) cairn plan -no-color | grep -c 'No changes'
  1
  $ HTTP_PROXY=127.0.0.1:$(cat port) NO_PROXY=.invalid cairn plan -no-color 2>&1 | tr -s '\n' ' ' | grep -o 'dial tcp: lookup cairn-proxy-test.invalid: no such host'
  dial tcp: lookup cairn-proxy-test.invalid: no such host
  $ cp $TESTDIR/main.tf main.tf
  $ cairn apply -auto-approve -no-color > /dev/null; echo "exit $?"
  exit 0
  $ HTTP_PROXY=http://127.0.0.1:1 cairn plan -no-color -detailed-exitcode > /dev/null; echo "exit $?"
  exit 0

Bad input: upstream's validators, with their attribute paths.

  $ cp bad.tf.txt main.tf
  $ cairn validate -no-color 2>&1
  
  Error: Invalid Attribute Value
  
    with data.http.bad,
    on main.tf line 1, in data "http" "bad":
     1: data "http" "bad" {
  
  Attribute retry.attempts value must be at least 0, got: -1
  
  Error: Invalid Attribute Value
  
    with data.http.bad,
    on main.tf line 1, in data "http" "bad":
     1: data "http" "bad" {
  
  Attribute retry.max_delay_ms value must be at least sum of <.min_delay_ms,
  got: 200
  
  Error: Invalid Attribute Value Match
  
    with data.http.bad,
    on main.tf line 3, in data "http" "bad":
     3:   method             = "OPTIONS"
  
  Attribute method value must be one of: ["GET" "POST" "HEAD"], got: "OPTIONS"
  
  Error: Invalid Attribute Value
  
    with data.http.bad,
    on main.tf line 4, in data "http" "bad":
     4:   request_timeout_ms = 0
  
  Attribute request_timeout_ms value must be at least 1, got: 0
  
  Error: Invalid Attribute Combination
  
    with data.http.bad,
    on main.tf line 6, in data "http" "bad":
     6:   ca_cert_pem        = "x"
  
  Attribute "insecure" cannot be specified when "ca_cert_pem" is specified
  
  Error: Invalid Attribute Combination
  
    with data.http.bad,
    on main.tf line 7, in data "http" "bad":
     7:   client_cert_pem    = "y"
  
  Attribute "client_key_pem" must be specified when "client_cert_pem" is
  specified
  [1]
  $ cp badpem.tf.txt main.tf
  $ cairn plan -no-color 2>&1 | sed -n '/^Error/,$p' | sed "s/:$(cat tls_port)/:TLSPORT/g"
  Error: Error making request
  
    with data.http.scheme,
    on main.tf line 5, in data "http" "scheme":
     5: data "http" "scheme" {
  
  Error making request: GET ftp://127.0.0.1/x giving up after 1 attempt(s): Get
  "ftp://127.0.0.1/x": unsupported protocol scheme "ftp"
  
  Error: Error configuring TLS client
  
    with data.http.badpem,
    on main.tf line 1, in data "http" "badpem":
     1: data "http" "badpem" {
  
  Error tls: Can't add the CA certificate to certificate pool. Only PEM encoded
  certificates are supported.

  $ kill $(cat pid) $(cat tls_pid) $(cat mtls_pid)
