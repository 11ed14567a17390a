The built-in hashicorp/tls provider's keys: tls_private_key for each
algorithm and data tls_public_key from its PEM and OpenSSH forms, a
no-change plan, the replacement a changed argument forces, the state
upgrade from schema version 0, the refused import, destroy, and
upstream's validation messages.  Private keys never show in plans.

  $ cairn apply -auto-approve -no-color > out; echo "exit $?"
  exit 0
  $ grep -E '^Apply|private_key_(pem|openssh)' out | LC_ALL=C sort | uniq -c | sed 's/^ *//'
  5       + private_key_openssh           = (sensitive value)
  5       + private_key_pem               = (sensitive value)
  4       + private_key_pem_pkcs8         = (sensitive value)
  1 Apply complete! Resources: 4 added, 0 changed, 0 destroyed.
  $ sed -n '/^Outputs:/,$p' out
  Outputs:
  
  algorithms = [
    "ECDSA",
    "ED25519",
  ]
  p224_openssh = ""
  same = [
    true,
    true,
    true,
  ]
  $ cairn state show tls_private_key.rsa | grep -E 'rsa_bits|ecdsa_curve|private_key_pem |BEGIN|fingerprint_sha256 *= "SHA256:'
      ecdsa_curve                   = "P224"
      private_key_pem               = (sensitive value)
      public_key_fingerprint_sha256 = "SHA256:* (glob)
          -----BEGIN PUBLIC KEY-----
      rsa_bits                      = 1024
  $ cairn plan -detailed-exitcode -no-color > /dev/null; echo "exit $?"
  exit 0

Each PEM block has the type upstream writes for its algorithm (P-224 has no
OpenSSH form), and the id is the hex SHA-1 of the PKIX DER after Go's TrimSpace (checked
with python's standard library; tests/unit/test_tlskey.c compares every encoding
with OpenSSL's and ssh-keygen's bytes).

  $ python3 -c '
  > import json, base64, hashlib
  > s = json.load(open("terraform.tfstate"))
  > for r in s["resources"]:
  >     if r["mode"] != "managed": continue
  >     a = r["instances"][0]["attributes"]
  >     pem = a["public_key_pem"].strip().split("\n")
  >     der = base64.b64decode("".join(pem[1:-1]))
  >     # strings.TrimSpace (Go), which upstream applies before hashing
  >     sp = [b" ", b"\t", b"\n", b"\v", b"\f", b"\r", b"\xc2\x85", b"\xc2\xa0"] + [chr(c).encode() for c in [0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000] + list(range(0x2000, 0x200b))]
  >     while any(der.startswith(x) for x in sp): der = der[len([x for x in sp if der.startswith(x)][0]):]
  >     while any(der.endswith(x) for x in sp): der = der[:-len([x for x in sp if der.endswith(x)][0])]
  >     print(r["name"], hashlib.sha1(der).hexdigest() == a["id"],
  >           a["private_key_pem"].split("\n")[0],
  >           a["private_key_pem_pkcs8"].split("\n")[0],
  >           a["private_key_openssh"].split("\n")[0] or "-")'
  ec True -----BEGIN EC PRIVATE KEY----- -----BEGIN PRIVATE KEY----- -----BEGIN OPENSSH PRIVATE KEY-----
  ed True -----BEGIN PRIVATE KEY----- -----BEGIN PRIVATE KEY----- -----BEGIN OPENSSH PRIVATE KEY-----
  p224 True -----BEGIN EC PRIVATE KEY----- -----BEGIN PRIVATE KEY----- -
  rsa True -----BEGIN RSA PRIVATE KEY----- -----BEGIN PRIVATE KEY----- -----BEGIN OPENSSH PRIVATE KEY-----

Changing an argument replaces the key.

  $ sed -i 's/ecdsa_curve = "P256"/ecdsa_curve = "P384"/' main.tf
  $ cairn plan -no-color | grep -E 'must be replaced|forces replacement|^Plan'
    # tls_private_key.ec must be replaced
        ~ ecdsa_curve                   = "P256" -> "P384" # forces replacement
  Plan: 1 to add, 0 to change, 1 to destroy.
  $ cairn apply -auto-approve -no-color | grep -E '^Apply'
  Apply complete! Resources: 1 added, 0 changed, 1 destroyed.
  $ cairn state show tls_private_key.ec | grep -E 'ecdsa-sha2'
          ecdsa-sha2-nistp384 * (glob)
  $ cairn plan -detailed-exitcode -no-color > /dev/null; echo "exit $?"
  exit 0

Import is not offered upstream, nor here.

  $ cairn state rm tls_private_key.ed > /dev/null
  $ cairn import -no-color tls_private_key.ed x 2>&1 | grep -E 'Error'
  Error: Resource Import Not Implemented
  $ cairn apply -auto-approve -no-color | grep -E '^Apply'
  Apply complete! Resources: 1 added, 0 changed, 0 destroyed.

Destroy.

  $ cairn destroy -auto-approve -no-color | grep -E 'Destroy complete'
  Destroy complete! Resources: 4 destroyed.

State written by provider 3.x (schema version 0, without the OpenSSH, PKCS#8
and SHA-256 values) is upgraded from its private_key_pem; the key is one
ssh-keygen fingerprinted at test-writing time.

  $ mkdir old && cp $TESTDIR/v0.tfstate old/terraform.tfstate
  $ printf 'resource "tls_private_key" "old" {\n  algorithm   = "ECDSA"\n  ecdsa_curve = "P256"\n}\noutput "fp" {\n  value = [tls_private_key.old.public_key_fingerprint_md5, tls_private_key.old.public_key_fingerprint_sha256, tls_private_key.old.public_key_openssh]\n}\n' > old/main.tf
  $ cairn -chdir=old apply -auto-approve -no-color | grep -E 'Apply|MD5|SHA256|nistp256'
        + "SHA256:Wo/PcjKGIKBp2RCQFFptSuYuGW0EjA3mnpFgJ5mc4YE",
              ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBBC+OPPA0ya7wSa0Xhu3dxDEtHocP6WXClezIZrPMScIQHELUIcgOVSd+VtokDbWx9NgqH1l5+TrNJOt2o9MECg=
  Apply complete! Resources: 0 added, 0 changed, 0 destroyed.
    "SHA256:Wo/PcjKGIKBp2RCQFFptSuYuGW0EjA3mnpFgJ5mc4YE",
    ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBBC+OPPA0ya7wSa0Xhu3dxDEtHocP6WXClezIZrPMScIQHELUIcgOVSd+VtokDbWx9NgqH1l5+TrNJOt2o9MECg=
  $ cairn -chdir=old plan -detailed-exitcode -no-color > /dev/null; echo "exit $?"
  exit 0

Bad input.

  $ cp bad.tf.txt main.tf
  $ cairn plan -no-color 2>&1 | grep -vE '^ *$|Refreshing|^ *(with|on) |^ *[0-9]+:'
  Error: Invalid Attribute Value Match
  Attribute algorithm value must be one of: ["RSA" "ECDSA" "ED25519"], got:
  "DSA"
  Error: Invalid Attribute Value Match
  Attribute ecdsa_curve value must be one of: ["P224" "P256" "P384" "P521"],
  got: "P999"
  Error: Invalid Attribute Combination
  No attribute specified when one (and only one) of
  [private_key_pem,private_key_openssh] is required
  Error: Invalid Attribute Combination
  No attribute specified when one (and only one) of
  [private_key_openssh,private_key_pem] is required
  $ printf 'data "tls_public_key" "k" {\n  private_key_pem = "not a key"\n}\ndata "tls_public_key" "o" {\n  private_key_openssh = file("bad.tf.txt")\n}\n' > main.tf
  $ cairn plan -no-color 2>&1 | grep -vE '^ *$|Refreshing|^ *(with|on) |^ *[0-9]+:'
  data.tls_public_key.k: Reading...
  data.tls_public_key.o: Reading...
  Planning failed. cairn encountered an error while generating this plan.
  Error: Unable to parse private key
  failed to decode PEM block: decoded bytes 0, undecoded 9
  Error: Unable to parse private key
  ssh: no key found
