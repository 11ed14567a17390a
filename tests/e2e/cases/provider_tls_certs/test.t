The built-in hashicorp/tls provider's certificates: a self-signed CA, a
request for an Ed25519 key and the certificate the CA signs for it, a
no-change plan, the in-place update of early_renewal_hours, the
replacement ready_for_renewal plans once the renewal time has come (the
state is edited rather than waited on), destroy, and upstream's messages
for bad input.

  $ cairn apply -auto-approve -no-color > out; echo "exit $?"
  exit 0
  $ grep -E '^Apply' out
  Apply complete! Resources: 5 added, 0 changed, 0 destroyed.
  $ cairn state show tls_self_signed_cert.ca | grep -E 'key_algorithm|ready_for|BEGIN|is_ca|max_path|early|set_'
          -----BEGIN CERTIFICATE-----
      early_renewal_hours   = 0
      is_ca_certificate     = true
      key_algorithm         = "ECDSA"
      max_path_length       = -1
      ready_for_renewal     = false
      set_authority_key_id  = true
      set_subject_key_id    = false
  $ cairn state show tls_locally_signed_cert.srv | grep -E 'ca_key_algorithm|ready_for|BEGIN|validity_(start|end)_time'
          -----BEGIN CERTIFICATE-----
      ca_key_algorithm      = "ECDSA"
          -----BEGIN CERTIFICATE-----
          -----BEGIN CERTIFICATE REQUEST-----
      ready_for_renewal     = false
      validity_end_time     = "*Z" (glob)
      validity_start_time   = "*Z" (glob)
  $ cairn state show tls_cert_request.srv | grep -E 'key_algorithm|BEGIN|id '
          -----BEGIN CERTIFICATE REQUEST-----
      id                 = "*" (glob)
      key_algorithm      = "ED25519"
  $ cairn plan -detailed-exitcode -no-color > /dev/null; echo "exit $?"
  exit 0

A certificate's id is its serial number in decimal.  (tests/unit/
test_tlscert.c has mbedTLS parse and verify certificates of every signer
algorithm; here Python checks the PEM framing.)

  $ python3 -c '
  > import json, base64
  > s = json.load(open("terraform.tfstate"))
  > for r in s["resources"]:
  >     a = r["instances"][0]["attributes"]
  >     if "cert_pem" in a:
  >         lines = a["cert_pem"].strip().split("\n")
  >         der = base64.b64decode("".join(lines[1:-1]))
  >         print(r["type"], lines[0], lines[-1], a["id"].isdigit(), der[0] == 0x30)'
  tls_locally_signed_cert -----BEGIN CERTIFICATE----- -----END CERTIFICATE----- True True
  tls_self_signed_cert -----BEGIN CERTIFICATE----- -----END CERTIFICATE----- True True

Changing early_renewal_hours updates in place.

  $ sed -i 's/validity_period_hours = 12/validity_period_hours = 12\n  early_renewal_hours   = 1/' main.tf
  $ cairn apply -auto-approve -no-color | grep -E 'early_renewal|Apply complete'
        ~ early_renewal_hours   = 0 -> 1
  Apply complete! Resources: 0 added, 1 changed, 0 destroyed.

Once validity_end_time minus early_renewal_hours has passed, the refresh
marks the certificate ready for renewal and the plan replaces it.

  $ python3 -c '
  > import json
  > s = json.load(open("terraform.tfstate"))
  > for r in s["resources"]:
  >     if r["type"] == "tls_locally_signed_cert":
  >         r["instances"][0]["attributes"]["validity_end_time"] = "2021-01-01T00:00:00.5Z"
  > s["serial"] += 1
  > json.dump(s, open("terraform.tfstate", "w"))'
  $ cairn plan -no-color | grep -E 'must be replaced|ready_for_renewal|^Plan'
        ~ ready_for_renewal     = false -> true
    # tls_locally_signed_cert.srv must be replaced
        ~ ready_for_renewal     = true -> false # forces replacement
  Plan: 1 to add, 0 to change, 1 to destroy.
  $ cairn apply -auto-approve -no-color | grep -E 'Apply complete'
  Apply complete! Resources: 1 added, 0 changed, 1 destroyed.
  $ cairn plan -detailed-exitcode -no-color > /dev/null; echo "exit $?"
  exit 0

A changed subject replaces the request, and with it the certificate.

  $ sed -i 's/common_name = "srv.example.com"/common_name = "srv2.example.com"/' main.tf
  $ cairn plan -no-color | grep -E 'must be replaced|^Plan'
    # tls_cert_request.srv must be replaced
    # tls_locally_signed_cert.srv must be replaced
  Plan: 2 to add, 0 to change, 2 to destroy.

Import is not offered upstream, nor here.

  $ cairn state rm tls_self_signed_cert.ca > /dev/null
  $ cairn import -no-color tls_self_signed_cert.ca 1 2>&1 | grep -E '^Error'
  Error: Resource Import Not Implemented

Destroy.

  $ cairn destroy -auto-approve -no-color | grep -E 'Destroy complete'
  Destroy complete! Resources: 4 destroyed.

Bad input: validation, then errors at apply.

  $ cp bad.tf.txt main.tf
  $ cairn plan -no-color 2>&1 | grep -vE '^ *$|Refreshing|^ *(with|on) |^ *[0-9]+:'
  Error: Invalid Attribute Value
  Attribute validity_period_hours value must be at least 0, got: -1
  Error: Invalid Attribute Value
  Attribute early_renewal_hours value must be at least 0, got: -2
  Error: Invalid Attribute Value
  Attribute max_path_length value must be at least -1, got: -3
  Error: Invalid Attribute Value Match
  Attribute allowed_uses[1] value must be one of: ["any_extended"
  "cert_signing" "client_auth" "code_signing" "content_commitment"
  "crl_signing" "data_encipherment" "decipher_only" "digital_signature"
  "email_protection" "encipher_only" "ipsec_end_system" "ipsec_tunnel"
  "ipsec_user" "key_agreement" "key_encipherment"
  "microsoft_commercial_code_signing" "microsoft_kernel_code_signing"
  "microsoft_server_gated_crypto" "netscape_server_gated_crypto" "ocsp_signing"
  "server_auth" "timestamping"], got: "serverAuth"
  Error: Invalid Attribute Value Length
  Attribute ip_addresses[0] string length must be at least 1, got: 0
  Error: Invalid Attribute Value
  Attribute subject list must contain at least 0 elements and at most 1
  elements, got: 2
  $ printf -- '-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIMGF1+TSGcuiSvtS3egCKkaMBqBhLL9V1huJO7FvrJq0oAoGCCqGSM49\nAwEHoUQDQgAEEL4488DTJrvBJrReG7d3EMS0ehw/pZcKV7Mhms8xJwhAcQtQhyA5\nVJ35W2iQNtbH02CofWXn5Os0k63aj0wQKA==\n-----END EC PRIVATE KEY-----\n' > key.pem
  $ cp apply_errors.tf.txt main.tf
  $ cairn apply -auto-approve -no-color 2>&1 | grep -E '^Error|^(Must|Failed|Could|unable)'
  Error: Invalid Certificate Subject
  Must contain at least one Distinguished Name when creating Certificate
  Error: Invalid IP address
  Failed to parse "10.0.0.256"
  Error: Invalid Certificate Authority
  Could not determine Authority Key Identifier
  Error: Failed to parse private key PEM
  unable to determine parser for PEM preamble: PUBLIC KEY
