data "tls_certificate": from content, and from url over a TLS handshake
with a server (python's ssl module) presenting a chain cairn itself made:
https:// and tls:// schemes, verify_chain against SSL_CERT_FILE, the
certificates root first as upstream lists them, a no-change plan, and
upstream's messages for bad arguments.

  $ mkdir pki && cp $TESTDIR/pki.tf.txt pki/main.tf
  $ cairn -chdir=pki apply -auto-approve -no-color > /dev/null; echo "exit $?"
  exit 0
  $ cairn -chdir=pki output -raw ca > ca.pem
  $ cairn -chdir=pki output -raw chain > chain.pem
  $ cairn -chdir=pki output -raw key > key.pem
  $ cairn -chdir=pki output -raw other > other.pem
  $ python3 $TESTDIR/serve.py > /dev/null 2>&1 &
  $ while [ ! -s port ]; do sleep 0.1; done

From content: one certificate, its fields in Go's words.

  $ printf 'data "tls_certificate" "c" {\n  content = file("ca.pem")\n}\noutput "c" {\n  value = [for k, v in data.tls_certificate.c.certificates[0] : "${k}=${v}" if k != "cert_pem" && k != "sha1_fingerprint" && k != "serial_number" && k != "not_before" && k != "not_after"]\n}\n' > main.tf
  $ cairn apply -auto-approve -no-color | sed -n '/^Outputs/,$p'
  Outputs:
  
  c = [
    "is_ca=true",
    "issuer=CN=test CA",
    "max_path_length=-1",
    "public_key_algorithm=ECDSA",
    "signature_algorithm=ECDSA-SHA256",
    "subject=CN=test CA",
    "version=3",
  ]
  $ cairn plan -detailed-exitcode -no-color > /dev/null; echo "exit $?"
  exit 0

From url: tls:// needs a port, https:// defaults to 443; with
verify_chain = false any chain is read, with the default (true) the CA
must be trusted (SSL_CERT_FILE) and the name must match.

  $ P=$(cat port); printf 'data "tls_certificate" "t" {\n  url          = "tls://127.0.0.1:%s"\n  verify_chain = false\n}\ndata "tls_certificate" "h" {\n  url = "https://localhost:%s/.well-known/openid-configuration"\n}\noutput "o" {\n  value = [length(data.tls_certificate.t.certificates), data.tls_certificate.t.certificates[0].subject, data.tls_certificate.t.certificates[0].is_ca, data.tls_certificate.t.certificates[1].subject, data.tls_certificate.h.id == data.tls_certificate.t.id]\n}\n' $P $P > main.tf
  $ SSL_CERT_FILE=ca.pem cairn apply -auto-approve -no-color | sed -n '/^Outputs/,$p'
  Outputs:
  
  o = [
    2,
    "CN=test CA",
    true,
    "CN=localhost",
    true,
  ]
  $ SSL_CERT_FILE=ca.pem cairn plan -detailed-exitcode -no-color > /dev/null; echo "exit $?"
  exit 0
  $ SSL_CERT_FILE=key.pem cairn plan -no-color 2>&1 | tr -s '\n ' '  ' | grep -oE "Failed to identify fetch peer certificates|Error reading ca cert file key.pem"
  Failed to identify fetch peer certificates
  Error reading ca cert file key.pem
  $ SSL_CERT_FILE=other.pem cairn plan -no-color 2>&1 | tr -s '\n ' '  ' | grep -oE "failed to fetch certificates from URL 'https': Get \"[^\"]*\": tls: failed to verify certificate: x509: certificate signed by unknown authority"
  failed to fetch certificates from URL 'https': Get "https://localhost:*/.well-known/openid-configuration": tls: failed to verify certificate: x509: certificate signed by unknown authority (glob)
  $ sed -i "s/localhost:/127.0.0.2:/" main.tf
  $ SSL_CERT_FILE=ca.pem cairn plan -no-color 2>&1 | tr -s '\n ' '  ' | grep -oE 'dial tcp 127.0.0.2:[0-9]+: connect: connection refused'
  dial tcp 127.0.0.2:*: connect: connection refused (glob)

https:// goes through a proxy as upstream's http.Client does (a CONNECT
tunnel; proxy.py sends every tunnel to the server above and logs it):
the provider's proxy block (url, username, password) for any host, else
HTTPS_PROXY from the environment (from_env defaults to true) but never
for a loopback address, and no proxy at all with from_env = false.

  $ python3 $TESTDIR/proxy.py > /dev/null 2>&1 &
  $ while [ ! -s pport ]; do sleep 0.1; done
  $ sed -e "s/PPORT/$(cat pport)/; s/PORT/$(cat port)/" $TESTDIR/proxy_block.tf.txt > main.tf
  $ SSL_CERT_FILE=ca.pem cairn apply -auto-approve -no-color | grep -E '^o ='
  o = "CN=localhost"
  $ sed -e 's/[0-9][0-9]*/N/g' proxy.log
  CONNECT localhost:N HTTP/N.N Proxy-Authorization: Basic dTpw
  $ sed -e "s/PORT/$(cat port)/" $TESTDIR/proxy_env.tf.txt > main.tf
  $ HTTPS_PROXY=127.0.0.1:$(cat pport) cairn apply -auto-approve -no-color | grep -E '^o ='
  o = "CN=localhost"
  $ sed -e 's/[0-9][0-9]*/N/g' proxy.log | tail -1
  CONNECT cairn-proxy-test.invalid:N HTTP/N.N
  $ cat $TESTDIR/proxy_noenv.tf.txt >> main.tf
  $ HTTPS_PROXY=127.0.0.1:$(cat pport) cairn plan -no-color 2>&1 | grep -oE 'no such host'
  no such host
  $ cp $TESTDIR/proxy_bad.tf.txt main.tf
  $ cairn plan -no-color 2>&1 | grep -E '^(Error|Attribute|specified|URL|"ftp)'
  Error: Invalid URL scheme
  URL "ftp://x" expected to use scheme from ["http" "https" "socks5"], got:
  "ftp"
  Error: Invalid Attribute Combination
  Attribute "proxy[0].from_env" cannot be specified when "proxy[0].url" is
  specified
  Error: Invalid Attribute Combination
  Attribute "proxy[0].url" cannot be specified when "proxy[0].from_env" is
  specified
  Error: Invalid Attribute Combination
  Attribute "proxy[0].username" must be specified when "proxy[0].password" is
  specified
  $ kill $(cat pid) $(cat ppid)

Bad arguments.

  $ printf 'data "tls_certificate" "a" {\n  url = "ftp://example.com/x"\n}\ndata "tls_certificate" "b" {\n  url = "nohost"\n}\ndata "tls_certificate" "c" {\n  content      = "x"\n  url          = "https://example.com"\n  verify_chain = true\n}\n' > main.tf
  $ cairn plan -no-color 2>&1 | grep -vE '^ *$|Reading|^ *(with|on) |^ *[0-9]+:'
  Error: Invalid URL scheme
  URL "ftp://example.com/x" expected to use scheme from ["https" "tls"], got:
  "ftp"
  Error: Invalid URL
  URL "nohost" contains no host
  Error: Invalid Attribute Combination
  2 attributes specified when one (and only one) of [content,url] is required
  Error: Invalid Attribute Combination
  2 attributes specified when one (and only one) of [url,content] is required
  Error: Invalid Attribute Combination
  Attribute "content" cannot be specified when "verify_chain" is specified
  $ printf 'data "tls_certificate" "d" {\n  url = "tls://example.com"\n}\ndata "tls_certificate" "e" {\n  content = "not a certificate"\n}\ndata "tls_certificate" "f" {\n  content = file("key.pem")\n}\n' > main.tf
  $ cairn plan -no-color 2>&1 | grep -E '^(Error|Value|Certificate|Port)'
  Error: URL malformed
  Port missing from URL: tls://example.com
  Error: Failed to decoded PEM
  Value is not a valid PEM encoding of a certificate
  Error: Unexpected PEM preamble
  Certificate PEM should be "CERTIFICATE", got "EC PRIVATE KEY"
