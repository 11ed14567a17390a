Basic authentication, TF_HTTP_* variables with Terraform's precedence
(the block and -backend-config over the environment), mutual TLS with
PEM text, and skip_cert_verification, which needs the host
configuration's opt-in.

  $ sh $E2E_LIB/httpstate.sh --user gitlab-ci-token --password s3cret --client-ca certs/ca.crt
  $ cat certs/client.crt > pem.crt; cat certs/client.key > pem.key

Without credentials: Terraform's "requires auth" (401), from init already,
which reads the state (for the providers it needs) as Terraform's does
("Error refreshing state: ...").

  $ TF_HTTP_CLIENT_CERTIFICATE_PEM="$(cat pem.crt)" TF_HTTP_CLIENT_PRIVATE_KEY_PEM="$(cat pem.key)" cairn init -backend-config=be.hcl > /dev/null
  
  Error: Error refreshing state: HTTP remote state endpoint requires auth
  
  [1]
  $ TF_HTTP_CLIENT_CERTIFICATE_PEM="$(cat pem.crt)" TF_HTTP_CLIENT_PRIVATE_KEY_PEM="$(cat pem.key)" cairn plan
  
  Error: Error acquiring the state lock
  
  Error message: HTTP remote state endpoint requires auth
  [1]

A wrong password from the environment: "invalid auth" (403).

  $ TF_HTTP_USERNAME=gitlab-ci-token TF_HTTP_PASSWORD=wrong TF_HTTP_CLIENT_CERTIFICATE_PEM="$(cat pem.crt)" TF_HTTP_CLIENT_PRIVATE_KEY_PEM="$(cat pem.key)" cairn state list
  
  Error: Failed to get state
  
  HTTP remote state endpoint invalid auth
  [1]

The right one works; the password never appears in any output or file
cairn writes.

  $ TF_HTTP_USERNAME=gitlab-ci-token TF_HTTP_PASSWORD=s3cret TF_HTTP_CLIENT_CERTIFICATE_PEM="$(cat pem.crt)" TF_HTTP_CLIENT_PRIVATE_KEY_PEM="$(cat pem.key)" cairn apply -auto-approve | tail -1
  b = "one"
  $ grep -rl s3cret .terraform | wc -l
  0

An argument wins over the variable: the block's (recorded) password
beats TF_HTTP_PASSWORD.

  $ TF_HTTP_CLIENT_CERTIFICATE_PEM="$(cat pem.crt)" TF_HTTP_CLIENT_PRIVATE_KEY_PEM="$(cat pem.key)" cairn init -reconfigure -backend-config=be.hcl -backend-config=username=gitlab-ci-token -backend-config=password=s3cret > /dev/null
  $ TF_HTTP_PASSWORD=wrong TF_HTTP_CLIENT_CERTIFICATE_PEM="$(cat pem.crt)" TF_HTTP_CLIENT_PRIVATE_KEY_PEM="$(cat pem.key)" cairn output b
  "one"

Without the client certificate the server ends the handshake (the raw
cause, an alert or a broken pipe, depends on timing).

  $ cairn output b 2>&1 | sed "s/:$(cat port)/:PORT/" | head -6
  
  Error: Failed to get state
  
  The request GET https://localhost:PORT/state/main failed after retries: the
  connection was dropped right after the TLS handshake (the server may require
  a client certificate: client_cert, client_key\): .* (re)
  $ TF_HTTP_CLIENT_CERTIFICATE_PEM="$(cat pem.crt)" cairn output b
  
  Error: Invalid http backend configuration
  
  client_certificate_pem is set but client_private_key_pem is not
  [1]

skip_cert_verification = true is refused unless the host configuration
allows it; then no CA is needed.

  $ grep -v client_ca be.hcl | sed '/BEGIN/,/EOT/d' > be-noca.hcl
  $ mkdir skip && cp main.tf skip/ && cd skip && TF_HTTP_CLIENT_CERTIFICATE_PEM="$(cat ../pem.crt)" TF_HTTP_CLIENT_PRIVATE_KEY_PEM="$(cat ../pem.key)" cairn init -backend-config=../be-noca.hcl -backend-config=username=gitlab-ci-token -backend-config=password=s3cret -backend-config=skip_cert_verification=true
  
  Initializing the backend...
  
  Error: TLS verification cannot be skipped
  
    on main.tf line 2, in terraform:
     2:   backend "http" {
  
  The http backend sets skip_cert_verification = true, but the host
  configuration does not allow it. Trust the server's CA instead
  (client_ca_certificate_pem), or set backend_skip_cert_verification = true
  under [defaults] in the host configuration (docs/backends.md).
  [1]
  $ printf '[defaults]\nbackend_skip_cert_verification = true\n' > skip/cairn.ini
  $ cd skip && CAIRN_CONFIG=cairn.ini TF_HTTP_CLIENT_CERTIFICATE_PEM="$(cat ../pem.crt)" TF_HTTP_CLIENT_PRIVATE_KEY_PEM="$(cat ../pem.key)" cairn init -backend-config=../be-noca.hcl -backend-config=username=gitlab-ci-token -backend-config=password=s3cret -backend-config=skip_cert_verification=true > /dev/null && CAIRN_CONFIG=cairn.ini TF_HTTP_CLIENT_CERTIFICATE_PEM="$(cat ../pem.crt)" TF_HTTP_CLIENT_PRIVATE_KEY_PEM="$(cat ../pem.key)" cairn output b
  "one"
  $ cd skip && TF_HTTP_CLIENT_CERTIFICATE_PEM="$(cat ../pem.crt)" TF_HTTP_CLIENT_PRIVATE_KEY_PEM="$(cat ../pem.key)" cairn output b
  
  Error: TLS verification cannot be skipped
  
    on main.tf line 2, in terraform:
     2:   backend "http" {
  
  The http backend sets skip_cert_verification = true, but the host
  configuration does not allow it. Trust the server's CA instead
  (client_ca_certificate_pem), or set backend_skip_cert_verification = true
  under [defaults] in the host configuration (docs/backends.md).
  [1]

Without skip_cert_verification and without the CA, the certificate is not
trusted (init reads the state, so init says so first; then output).

  $ mkdir noca && cp main.tf noca/ && cd noca && TF_HTTP_CLIENT_CERTIFICATE_PEM="$(cat ../pem.crt)" TF_HTTP_CLIENT_PRIVATE_KEY_PEM="$(cat ../pem.key)" SSL_CERT_FILE=../certs/ca2.crt cairn init -backend-config=../be-noca.hcl 2>&1 | sed "s/:$(cat ../port)/:PORT/" | sed -n '/Error/,$p'
  Error: Error refreshing state: The request GET https://localhost:PORT/state/main failed: the server's certificate is not trusted (unknown CA or self-signed); check client_ca_certificate_pem, or SSL_CERT_FILE / SSL_CERT_DIR.
  
  $ cd noca && TF_HTTP_CLIENT_CERTIFICATE_PEM="$(cat ../pem.crt)" TF_HTTP_CLIENT_PRIVATE_KEY_PEM="$(cat ../pem.key)" SSL_CERT_FILE=../certs/ca2.crt cairn output b 2>&1 | sed "s/:$(cat ../port)/:PORT/"
  
  Error: Failed to get state
  
  The request GET https://localhost:PORT/state/main failed: the server's
  certificate is not trusted (unknown CA or self-signed); check
  client_ca_certificate_pem, or SSL_CERT_FILE / SSL_CERT_DIR.

  $ kill $(cat srv.pid)
