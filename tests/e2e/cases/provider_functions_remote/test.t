Provider-defined functions of a remote provider (the reference server's
device_label): GetProviderSchema lists them, CallFunction runs them,
without any provider block (functions are called on an unconfigured
instance, so the request carries no provider_config).

  $ $TESTDIR/../../../provider/mkcerts.sh certs
  $ sh $TESTDIR/start.sh server
  $ CAIRN_CONFIG=cairn.ini cairn plan -no-color | grep -E '^  [+] '
    + conv  = "X-0012"
    + label = "AMS-0007"
    + more  = "AMS-0001-a-b"
  $ CAIRN_CONFIG=cairn.ini cairn apply -auto-approve -no-color | tail -4
  
  conv = "X-0012"
  label = "AMS-0007"
  more = "AMS-0001-a-b"

The server's function errors: one naming an argument points at it.

  $ cp bad.tf.txt bad.tf
  $ CAIRN_CONFIG=cairn.ini cairn plan -no-color
  
  Error: Invalid function argument
  
    on bad.tf line 1, in output "neg":
     1: output "neg" { value = provider::ref::device_label("ams", -1) }
  
  Invalid value for "number" parameter: must be a whole number, 0 or more.
  
  Error: Error in function call
  
    on bad.tf line 2, in output "empty":
     2: output "empty" { value = provider::ref::device_label("", 1) }
  
  Call to function "provider::ref::device_label" failed: no site given.
  
  Error: Unknown provider function
  
    on bad.tf line 3, in output "none":
     3: output "none" { value = provider::ref::nope() }
  
  The function "nope" is not available from the provider "ref".
  [1]
  $ kill $(cat pid)
