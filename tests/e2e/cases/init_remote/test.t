A remote provider over TLS: the reference provider on 127.0.0.1 with
certificates made now; the host configuration maps its source address.

  $ $TESTDIR/../../../provider/mkcerts.sh certs
  $ sh $TESTDIR/start.sh server
  $ CAIRN_CONFIG=cairn.ini cairn init 2>&1 | sed "s/:$(cat port)/:PORT/"
  
  Initializing the backend...
  
  Initializing provider plugins...
  - Querying acme.test/ref/ref...
  - Using acme.test/ref/ref from https://localhost:PORT/cairn/v1
  
  cairn has created a lock file .terraform.lock.hcl to record the provider
  selections it made above. Include this file in your version control repository
  so that cairn can guarantee to make the same selections by default when
  you run "cairn init" in the future.
  
  cairn has been successfully initialized!
  
  You may now begin working with cairn. Try running "cairn plan" to see
  any changes that are required for your infrastructure. All cairn commands
  should now work.
  
  If you ever set or change modules or backend configuration for cairn,
  rerun this command to reinitialize your working directory. If you forget, other
  commands will detect it and remind you to do so if necessary.
  $ grep identity .terraform.lock.hcl | grep -c "$(cat certs/server.pin)"
  1
  $ cat .terraform/providers/acme.test/ref/ref/identity | grep -c sha256//
  1

The server comes back with another key (valid for the name, same CA):
init refuses until -upgrade accepts it.

  $ kill $(cat pid); sh $TESTDIR/start.sh client
  $ cairn init -config=cairn.ini 2>&1 | sed "s/:$(cat port)/:PORT/; s|sha256//[A-Za-z0-9+/=]*|KEY|g"
  
  Initializing the backend...
  
  Initializing provider plugins...
  - Querying acme.test/ref/ref...
  
  Error: Provider endpoint identity changed
  
  The server for acme.test/ref/ref at https://localhost:PORT/cairn/v1 presents
  the public key KEY, but the
  dependency lock file records
  KEY. This can mean that the
  server's key was rotated, or that you are not talking to the server you
  expect. If the change is expected, run "cairn init -upgrade" to accept it.
  $ cairn init -config=cairn.ini -upgrade 2>&1 | sed "s/:$(cat port)/:PORT/; s|sha256//[A-Za-z0-9+/=]*|KEY|g"
  
  Initializing the backend...
  
  Initializing provider plugins...
  - Querying acme.test/ref/ref...
  - Using acme.test/ref/ref from https://localhost:PORT/cairn/v1
  
  Warning: Provider endpoint identity changed
  
  The new public key KEY of
  acme.test/ref/ref was accepted (-upgrade).
  
  cairn has been successfully initialized!
  
  You may now begin working with cairn. Try running "cairn plan" to see
  any changes that are required for your infrastructure. All cairn commands
  should now work.
  
  If you ever set or change modules or backend configuration for cairn,
  rerun this command to reinitialize your working directory. If you forget, other
  commands will detect it and remind you to do so if necessary.
  $ grep identity .terraform.lock.hcl | grep -c "$(cat certs/server.pin)"
  0
  [1]

A CA that did not sign the server's certificate is refused with the reason.

  $ kill $(cat pid); sh $TESTDIR/start.sh server ca2
  $ cairn init -config=cairn.ini 2>&1 | sed "s/:$(cat port)/:PORT/"
  
  Initializing the backend...
  
  Initializing provider plugins...
  - Querying acme.test/ref/ref...
  
  Error: Provider request failed
  
  Provider "acme.test/ref/ref": The call /GetProviderSchema to
  https://localhost:PORT/cairn/v1/GetProviderSchema failed: the server's
  certificate is not trusted (unknown CA or self-signed); check ca_file /
  ca_dir.
  $ kill $(cat pid)
  $ cairn init -config=missing.ini
  
  Initializing the backend...
  
  Error: Host configuration file not found
  
  The host configuration missing.ini (named by -config) does not exist.
  [1]
