What tls v4.1-v4.4 added (docs/providers.md): the write-only private keys
(private_key_pem_wo and its version; ca_private_key_pem_wo for a locally
signed certificate), the subject's email_address, and the validity times
in the zone of Go's time.Local.  k.tzif is the tzdata file of
Asia/Kolkata (+05:30), so the case does not depend on the host's tzdata.

  $ python3 -c '
  > import base64
  > open("k.tzif", "wb").write(base64.b64decode(
  > "VFppZjIAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAGAAAABAAAABKAAAAAh528usrbjCjM"
  > "BXEYzJUyqNJ0EpgBAgMCAwIAAFLYAAAAAEtGAAQAAE1YAAgAAFtoAQxMTVQATU1UAElTVAArMDYz"
  > "MABUWmlmMgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAcAAAAFAAAAFv////8muhgo////"
  > "/0Pn6zD/////h528uv/////K24wo/////8wFcRj/////zJUyqP/////SdBKYAQIDBAMEAwAAUtgA"
  > "AAAAUtAABAAAS0YACAAATVgADAAAW2gBEExNVABITVQATU1UAElTVAArMDYzMAAKSVNULTU6MzAK"))'
  $ TZ=$PWD/k.tzif cairn apply -auto-approve -no-color > out; echo "exit $?"
  exit 0
  $ grep -E '^(Apply|subject|issuer)' out
  Apply complete! Resources: 5 added, 0 changed, 0 destroyed.
  issuer = "CN=Example CA,1.2.840.113549.1.9.1=#0c0e6361406578616d706c652e636f6d"
  subject = "1.2.840.113549.1.9.1=#0c0f737276406578616d706c652e636f6d"

The validity times carry the zone's offset, as Go's MarshalText of
time.Now() does; the write-only keys are null in the state, which holds
no private key but tls_private_key's own.

  $ cairn state show tls_self_signed_cert.ca | grep -E 'validity_(start|end)_time|_wo'
      private_key_pem_wo         = (write-only attribute)
      private_key_pem_wo_version = 1
      validity_end_time          = "*+05:30" (glob)
      validity_start_time        = "*+05:30" (glob)
  $ python3 -c '
  > import json
  > s = json.load(open("terraform.tfstate"))
  > for r in s["resources"]:
  >     a = r["instances"][0]["attributes"]
  >     keys = [k for k, v in a.items() if isinstance(v, str) and "PRIVATE KEY" in v]
  >     wo = {k: v for k, v in a.items() if "_wo" in k}
  >     print(r["type"], keys, wo)'
  tls_certificate [] {}
  tls_cert_request [] {'private_key_pem_wo': None, 'private_key_pem_wo_version': 1}
  tls_locally_signed_cert [] {'ca_private_key_pem_wo': None, 'ca_private_key_pem_wo_version': 1}
  tls_private_key ['private_key_openssh', 'private_key_pem', 'private_key_pem_pkcs8'] {}
  tls_private_key ['private_key_openssh', 'private_key_pem', 'private_key_pem_pkcs8'] {}
  tls_self_signed_cert [] {'private_key_pem_wo': None, 'private_key_pem_wo_version': 1}

The subject's email_address is the PKCS#9 attribute as an IA5String, the
last RDN (upstream appends it to pkix.Name's ExtraNames).

  $ python3 -c '
  > import json, base64
  > s = json.load(open("terraform.tfstate"))
  > for r in s["resources"]:
  >     a = r["instances"][0]["attributes"]
  >     if r["type"] == "tls_cert_request":
  >         der = base64.b64decode("".join(a["cert_request_pem"].strip().split("\n")[1:-1]))
  >         rdn = bytes.fromhex("06092a864886f70d010901160f") + b"srv@example.com"
  >         print(rdn in der)'
  True
  $ TZ=$PWD/k.tzif cairn plan -detailed-exitcode -no-color > /dev/null; echo "exit $?"
  exit 0

A new key version replaces the certificate (and what it signs).  TZ
holding a POSIX rule, which Go cannot load, is UTC as in Go.

  $ TZ=UTC-2 cairn apply -auto-approve -no-color -var key_version=2 > out; echo "exit $?"
  exit 0
  $ grep -E 'forces replacement|^Apply' out
          EOT -> (known after apply) # forces replacement
        ~ private_key_pem_wo_version = 1 -> 2 # forces replacement
  Apply complete! Resources: 2 added, 0 changed, 2 destroyed.
  $ cairn state show tls_self_signed_cert.ca | grep -E 'validity_start_time'
      validity_start_time        = "*Z" (glob)

Upstream's ExactlyOneOf and RequiredTogether on the key arguments.

  $ cp bad.tf.txt main.tf
  $ cairn validate -no-color 2>&1 | grep -vE '^ *$|^ *(with|on) |^ *[0-9]+:'
  Error: Invalid Attribute Combination
  Exactly one of these attributes must be configured:
  [private_key_pem,private_key_pem_wo]
  Error: Missing Attribute Configuration
  Exactly one of these attributes must be configured:
  [private_key_pem,private_key_pem_wo]
  Error: Invalid Attribute Combination
  These attributes must be configured together:
  [private_key_pem_wo,private_key_pem_wo_version]
  Error: Invalid Attribute Combination
  These attributes must be configured together:
  [ca_private_key_pem_wo,ca_private_key_pem_wo_version]
