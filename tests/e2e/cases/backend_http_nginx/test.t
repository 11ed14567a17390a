The http backend against a real server: Debian's nginx with WebDAV
(dav_methods PUT DELETE) over TLS, in Terraform's no-lock mode:
update_method = "PUT" and no lock_address (tests/http/nginx.sh; the
address https://127.0.0.1:PORT/states/x.tfstate and the test CA come from
-backend-config).

  $ sh $TESTDIR/../../../http/nginx.sh start
  $ grep address be.hcl | sed 's/:[0-9][0-9]*\//:PORT\//'
  address = "https://127.0.0.1:PORT/states/x.tfstate"
  $ cairn init -backend-config=be.hcl | grep -i 'backend "http"'
  Successfully configured the backend "http"! Terraform will automatically
  $ cairn apply -auto-approve | tail -3
  Outputs:
  
  b = "one"

The state is the file nginx wrote on its disk, byte for byte what
`state pull` reads back (which, as Terraform's, prints one newline after
the state's own final one).

  $ cairn state pull | head -c -1 > pulled.json
  $ cmp pulled.json "$(cat nginx.root)/states/x.tfstate" && echo same
  same
  $ python3 -c 'import json; s = json.load(open("pulled.json")); print(s["serial"], len(s["resources"]), s["outputs"]["b"]["value"])'
  1 2 one

A second apply replaces it (nginx answers 204 to a PUT over an existing
file).

  $ cairn apply -auto-approve -var v=two | tail -1
  b = "two"
  $ cairn state pull | head -c -1 > pulled.json
  $ cmp pulled.json "$(cat nginx.root)/states/x.tfstate" && echo same
  same
  $ python3 -c 'import json; s = json.load(open("pulled.json")); print(s["serial"], s["outputs"]["b"]["value"])'
  2 two

There is no lock address, so there is no locking: -lock=true (the
default) neither locks nor fails, as in Terraform.

  $ cairn plan -lock=true -var v=two -detailed-exitcode | tail -1
  found no differences, so no changes are needed.
  $ cairn apply -lock=true -auto-approve -var v=two | tail -1
  b = "two"

A CA that did not sign nginx's certificate is refused with a clear error
and exit 1.

  $ mkdir wrong && cp main.tf wrong/ && sed '/client_ca/,$d' be.hcl > wrong/be.hcl
  $ { echo 'client_ca_certificate_pem = <<EOT'; cat ngcerts/stranger.crt; echo EOT; } >> wrong/be.hcl
  $ cd wrong && cairn init -backend-config=be.hcl
  
  Initializing the backend...
  
  Successfully configured the backend "http"! Terraform will automatically
  use this backend unless the backend configuration changes.
  
  Error: Error refreshing state: The request GET https://127.0.0.1:*/states/x.tfstate failed: the server's certificate is not trusted (unknown CA or self-signed); check client_ca_certificate_pem, or SSL_CERT_FILE / SSL_CERT_DIR. (glob)
  
  [1]
  $ cd wrong && cairn state pull
  
  Error: Failed to get state
  
  The request GET https://127.0.0.1:*/states/x.tfstate failed: the server's (glob)
  certificate is not trusted (unknown CA or self-signed); check
  client_ca_certificate_pem, or SSL_CERT_FILE / SSL_CERT_DIR.
  [1]

`state rm` pushes the state without the instance (PUT, as every write);
destroy then empties the state on nginx's disk.

  $ cairn state rm terraform_data.b | head -1
  Removed terraform_data.b
  $ python3 -c 'import json; s = json.load(open("'"$(cat nginx.root)"'/states/x.tfstate")); print(s["serial"], [r["name"] for r in s["resources"]])'
  3 ['a']
  $ cairn destroy -auto-approve -var v=two | tail -1
  Destroy complete! Resources: 1 destroyed.
  $ python3 -c 'import json; s = json.load(open("'"$(cat nginx.root)"'/states/x.tfstate")); print(s["serial"], len(s["resources"]))'
  4 0

The requests nginx saw, in order (its access log, complete once it has
stopped): init's GET (404, no state yet), the first apply's GET and PUT
(201 Created), then 204 for every later PUT; the no-change apply writes
nothing; the wrong CA's attempts never got past the TLS handshake, so no
request was logged.

  $ sh $TESTDIR/../../../http/nginx.sh stop
  $ cat nginx.access
  GET /states/x.tfstate 404
  GET /states/x.tfstate 404
  PUT /states/x.tfstate 201
  GET /states/x.tfstate 200
  GET /states/x.tfstate 200
  PUT /states/x.tfstate 204
  GET /states/x.tfstate 200
  GET /states/x.tfstate 200
  GET /states/x.tfstate 200
  GET /states/x.tfstate 200
  PUT /states/x.tfstate 204
  GET /states/x.tfstate 200
  PUT /states/x.tfstate 204
