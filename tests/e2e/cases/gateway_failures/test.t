Failures around `cairn gateway`: a bad configuration, mutual TLS, a
plugin killed in the middle of an apply, and a retried apply answered
from the idempotency cache.  Helpers: ../gateway_null/start.sh (the
gateway with the real terraform-provider-null) and stop.sh.

  $ cairn gateway -check -config bad.ini > out 2>&1; echo "exit $?"
  exit 1
  $ grep '^bad.ini' out
  bad.ini:14: unknown section [mystery]: the gateway configuration has
  bad.ini:2: the value of "listen" must be HOST:PORT.
  bad.ini:4: the value of "threads" must be a number from 1 to 256.
  bad.ini:5: unknown key "frobnicate" in section [gateway].
  bad.ini:9: the value of "plugin" must be an absolute path to a provider
  bad.ini:1: [gateway] needs "key_file".
  bad.ini:1: [gateway] needs "work_dir".
  bad.ini:8: provider "registry.terraform.io/hashicorp/null" needs "plugin"
  bad.ini:11: client "edge" needs token_file or certificate_cn (how it proves
  bad.ini:11: client "edge" may use "registry.terraform.io/hashicorp/aws",
  $ cairn gateway -config bad.ini > /dev/null 2>&1; echo "exit $?"
  exit 1

Mutual TLS: with client_ca_file the handshake needs a client certificate
signed by that CA.  Without one the client is refused; with one (and its
token) it works; a client known by its certificate alone needs no token.

  $ GW_EXTRA='client_ca_file = certs/ca.crt' CLIENT_EXTRA='[client "bycert"]
  > certificate_cn = client
  > providers = *' sh $TESTDIR/../gateway_null/start.sh
  $ CAIRN_CONFIG=cairn.ini cairn init > out 2>&1; echo "exit $?"
  exit 1
  $ grep -c 'client certificate' out
  1
  $ printf 'client_cert = %s/certs/client.crt\nclient_key = %s/certs/client.key\n' $PWD $PWD >> cairn.ini
  $ CAIRN_CONFIG=cairn.ini cairn init > out 2>&1; echo "exit $?"
  exit 0
  $ grep -c 'client=edge .*call=GetProviderSchema status=200' gw.log
  1
  $ sed -i '/token_file/d' cairn.ini
  $ CAIRN_CONFIG=cairn.ini cairn plan > out 2>&1; echo "exit $?"
  exit 0
  $ grep -c 'client=bycert .*status=200' gw.log | sed 's/^[1-9][0-9]*$/some/'
  some
  $ sh $TESTDIR/../gateway_null/stop.sh

The plugin killed in the middle of an apply, between two calls: the
gateway finds the process dead before the next call, retires it, and
starts and configures a new one from the call's provider_config, so the
apply goes on (a process that dies during a call gives the client
"Plugin did not respond", as a local plugin does).  A long idle timeout:
no process may stop by itself here.

  $ GW_EXTRA='idle_timeout = 10m' sh $TESTDIR/../gateway_null/start.sh
  $ CAIRN_CONFIG=cairn.ini cairn init > /dev/null 2>&1
  $ CAIRN_CONFIG=cairn.ini cairn apply -auto-approve > out 2>&1; echo "exit $?"
  exit 0
  $ grep -e 'Creation complete' -e 'Apply complete' out
  null_resource.a: Creation complete after \d+s \[id=\d+\] (re)
  null_resource.b: Creation complete after \d+s \[id=\d+\] (re)
  Apply complete! Resources: 2 added, 0 changed, 0 destroyed.
  $ grep -c 'stopped (broken)' gw.log
  1
  $ cairn state list
  null_resource.a
  null_resource.b
  $ sh $TESTDIR/../gateway_null/stop.sh

Idempotency: a retried ApplyResourceChange with the same key gets the
first answer, without reaching the plugin; another key creates another
object.  (apply.sh sends the call with curl.)

  $ GW_EXTRA='idle_timeout = 10m
  > max_request = 4KiB' sh $TESTDIR/../gateway_null/start.sh
  $ sh apply.sh key-1 > first; cat first | cut -d' ' -f2
  0
  $ sh apply.sh key-2 > second; cmp -s first second || echo different
  different
  $ sh apply.sh key-1 | cmp - first && echo same
  same
  $ grep -c 'answered from the idempotency cache' gw.log
  1

A request body above max_request (4 KiB here) is refused with 413 in the
protocol's error format; the token never appears in the log.

  $ head -c 5000 /dev/zero | tr '\0' x > big
  $ curl -s --cacert certs/ca.crt --resolve "localhost:$(cat port):127.0.0.1" -H "Authorization: Bearer $(cat token)" --data-binary @big -w ' %{http_code}\n' "https://localhost:$(cat port)/providers/hashicorp/null/ReadResource"
  {"error":{"code":"too_large","message":"the request body (5000 bytes) is larger than the gateway's limit of 4096 bytes"}} 413
  $ grep -c -F "$(cat token)" gw.log
  0
  [1]

GET /status, for monitoring: any authenticated client sees how busy the
gateway is: its plugin processes (the schema's unconfigured one and the
applies' configured one) and the calls it handled (the three applies; the
oversized body was refused before any handler).  Without credentials it
is refused like a call.

  $ curl -s --cacert certs/ca.crt --resolve "localhost:$(cat port):127.0.0.1" -w ' %{http_code}\n' "https://localhost:$(cat port)/status"
  {"error":{"code":"unauthorized","message":"a bearer token or a client certificate is required"}} 401
  $ curl -s --cacert certs/ca.crt --resolve "localhost:$(cat port):127.0.0.1" -H "Authorization: Bearer $(cat token)" "https://localhost:$(cat port)/status" | python3 -c 'import json, sys; d = json.load(sys.stdin); c = d["calls"]; print(d["status"], sorted(d), d["plugin_processes"], c["in_flight"], c["failed"], c["served"])'
  ok ['calls', 'clients', 'plugin_processes', 'providers', 'status', 'uptime_seconds'] {'open': 2, 'busy': 0, 'max': 16} 0 0 3
  $ grep -c 'call=status status=200' gw.log
  1
  $ sh $TESTDIR/../gateway_null/stop.sh
