#!/usr/bin/env python3
"""Reference remote provider for cairn (docs/provider-protocol.md), Python 3
standard library only.

It implements the protocol for a small device-management API:

  resource ref_device   id (computed), serial (computed), name (required),
                        model (required, forces replacement), tags
                        (map of string), secret (sensitive), interface
                        blocks (list: name required, mtu optional)
  resource ref_entry    key (required, forces replacement), value
                        (required), id (computed = key), version
                        (computed, +1 per update)
                        (moved blocks: takes over a null_resource whose
                        triggers hold key and value)
  data     ref_device_info   id (required) -> name, model
  ephemeral ref_token   device (required), renew (bool: ask to be renewed
                        at once), fail (bool: Open fails) -> lease and
                        token (sensitive); the lease is the private data,
                        renewed and closed by it (an unknown lease is an
                        error diagnostic)
  provider              region (optional)
  function device_label(site, number, suffixes...) -> "SITE-NNNN-..."
                        (errors: empty site; a negative or fractional
                        number, naming argument 1)

Data lives in a JSON file (--data), rewritten atomically after every
change, including the answers remembered per Idempotency-Key, so a
restarted server still recognises a retried create.

Usage: server.py --port 0 [--cert C --key K [--client-ca CA]] [--data F]
                 [--token T] [--prefix /cairn/v1]
The chosen port is printed on the first line of stdout.

Admin calls (POST, JSON; never under --prefix, no token needed):
  /_admin/faults   {"latency_ms": N, "error_rate": 0..1, "rules": [RULE]}
                   RULE = {"call": NAME|"*", "kind": K, "count": N, ...}
                   K: "status" (+"status", "retry_after"), "drop",
                      "truncate", "garbage", "wrong_type",
                      "inconsistent_plan", "inconsistent_apply",
                      "drop_after_apply" (apply done, answer lost),
                      "latency" (+"ms")
  /_admin/stats    -> {"calls": {NAME: n}, "creates": n, "duplicates": n,
                       "devices": n, "entries": n, "keys": [idem keys],
                       "leases": [open leases], "closed": ["LEASE
                       renewed=N", ...] in the order closed}
  /_admin/drift    {"id": ID, "set": {attr: value}} or {"id": ID,
                   "delete": true}: change a device behind cairn's back
  /_admin/reset    forget everything (data and faults)
"""
import argparse
import base64
import http.server
import json
import os
import random
import socketserver
import ssl
import sys
import threading
import time
import warnings

warnings.simplefilter("ignore", DeprecationWarning)

LOCK = threading.RLock()
STATE = {"devices": {}, "entries": {}, "next": 1, "idem": {}, "leases": {}}
STATS = {"calls": {}, "creates": 0, "duplicates": 0}
CONNS = [0]   # connections accepted (TLS handshakes), never reset
FAULTS = {"latency_ms": 0, "error_rate": 0.0, "rules": []}
ARGS = None


def save():
    if not ARGS.data:
        return
    tmp = ARGS.data + ".tmp"
    with open(tmp, "w") as f:
        json.dump(STATE, f, sort_keys=True)
    os.replace(tmp, ARGS.data)


def load():
    if ARGS.data and os.path.exists(ARGS.data):
        with open(ARGS.data) as f:
            STATE.update(json.load(f))


# ---- schema -----------------------------------------------------------------

def A(t, **flags):
    d = {"type": t}
    d.update(flags)
    return d


DEVICE = {"version": 1, "block": {
    "attributes": {
        "id": A("string", computed=True),
        "serial": A("string", computed=True),
        "name": A("string", required=True),
        "model": A("string", required=True,
                   description="hardware model; changing it replaces"),
        "tags": A(["map", "string"], optional=True),
        "secret": A("string", optional=True, sensitive=True),
    },
    "block_types": {
        "interface": {"nesting_mode": "list", "min_items": 0,
                      "max_items": 8, "block": {"attributes": {
                          "name": A("string", required=True),
                          "mtu": A("number", optional=True)}}},
    }}}
ENTRY = {"version": 0, "block": {"attributes": {
    "id": A("string", computed=True),
    "key": A("string", required=True),
    "value": A("string", required=True),
    "version": A("number", computed=True),
}}}
DEVICE_INFO = {"version": 0, "block": {"attributes": {
    "id": A("string", required=True),
    "name": A("string", computed=True),
    "model": A("string", computed=True),
}}}
FUNCTIONS = {
    "device_label": {
        "parameters": [
            {"name": "site", "type": "string",
             "description": "site code, not empty"},
            {"name": "number", "type": "number",
             "description": "device number, 0 or more"}],
        "variadic_parameter": {"name": "suffixes", "type": "string"},
        "return": {"type": "string"},
        "summary": "A device label: SITE-NNNN[-SUFFIX...]",
    },
}
TOKEN = {"version": 0, "block": {"attributes": {
    "device": A("string", required=True),
    "renew": A("bool", optional=True),
    "fail": A("bool", optional=True),
    "lease": A("string", computed=True),
    "token": A("string", computed=True, sensitive=True),
}}}
SCHEMA = {
    "protocol_version": 1,
    "ephemeral_resource_schemas": {"ref_token": TOKEN},
    "functions": FUNCTIONS,
    "provider": {"version": 0, "block": {"attributes": {
        "region": A("string", optional=True)}}},
    "resource_schemas": {"ref_device": DEVICE, "ref_entry": ENTRY},
    "data_source_schemas": {"ref_device_info": DEVICE_INFO},
    "server_capabilities": {"plan_destroy": False},
}
ATTRS = {"ref_device": DEVICE, "ref_entry": ENTRY}


class CallError(Exception):
    def __init__(self, status, code, message):
        Exception.__init__(self, message)
        self.status, self.code, self.message = status, code, message


def diag(summary, detail="", attr=None):
    d = {"severity": "error", "summary": summary, "detail": detail}
    if attr:
        d["attribute"] = [{"attr": attr}]
    return d


def ev_value(ev):
    """(value, marker) of an encoded value; (None, None) when absent."""
    if ev is None:
        return None, None
    return ev.get("value"), ev.get("unknown")


def attr_unknown(marker, name):
    if marker is True:
        return True
    if isinstance(marker, dict):
        return marker.get(name) is True
    return False


def only_schema(tn, obj):
    names = set(ATTRS[tn]["block"]["attributes"]) | set(
        ATTRS[tn]["block"].get("block_types", {}))
    out = {k: obj.get(k) for k in names}
    if tn == "ref_device" and out.get("interface") is None:
        out["interface"] = []
    return out


# ---- calls ------------------------------------------------------------------

def take_rule(call, kinds):
    with LOCK:
        for r in FAULTS["rules"]:
            if r.get("count", 1) > 0 and r.get("call", "*") in (call, "*") \
                    and r["kind"] in kinds:
                r["count"] = r.get("count", 1) - 1
                return r
    return None


def c_schema(req, hdr):
    if 1 not in req.get("protocol_versions", []):
        raise CallError(400, "unsupported_protocol", "this server speaks 1")
    return dict(SCHEMA)


def c_validate_resource(req, hdr):
    v, m = ev_value(req.get("config"))
    diags = []
    if req.get("type_name") == "ref_device" and isinstance(v, dict):
        if v.get("model") == "bad" and not attr_unknown(m, "model"):
            diags.append(diag("Unsupported model",
                              "model \"bad\" is not sold", "model"))
    return {"diagnostics": diags}


def c_ok(req, hdr):
    return {"diagnostics": []}


def c_upgrade(req, hdr):
    tn = req["type_name"]
    raw = req.get("raw_state") or {}
    return {"upgraded_state": {"value": only_schema(tn, raw)}}


def c_read(req, hdr):
    tn = req["type_name"]
    v, _ = ev_value(req.get("current_state"))
    if v is None:
        return {"new_state": {"value": None}}
    with LOCK:
        if tn == "ref_device":
            cur = STATE["devices"].get(v.get("id"))
        else:
            cur = STATE["entries"].get(v.get("key"))
    if cur is None:
        return {"new_state": {"value": None}, "private": req.get("private")}
    return {"new_state": {"value": only_schema(tn, cur)},
            "private": req.get("private", "")}


def c_plan(req, hdr):
    tn = req["type_name"]
    prior, _ = ev_value(req.get("prior_state"))
    prop, pm = ev_value(req.get("proposed_new_state"))
    if prop is None:
        return {"planned_state": {"value": None}}
    planned = dict(prop)
    marker = dict(pm) if isinstance(pm, dict) else {}
    replace = []
    if tn == "ref_device":
        computed = ["id", "serial"]
        if prior is not None and (prior.get("model") != prop.get("model")
                                  or attr_unknown(pm, "model")):
            replace.append([{"attr": "model"}])
    else:
        computed = ["id", "version"]
        if prior is not None and (prior.get("key") != prop.get("key")
                                  or attr_unknown(pm, "key")):
            replace.append([{"attr": "key"}])
    changed = prior is None or replace
    if changed:
        for a in computed:
            planned[a] = None
            marker[a] = True
    elif tn == "ref_entry" and (prior.get("value") != prop.get("value") or
                                attr_unknown(pm, "value")):
        planned["version"] = None
        marker["version"] = True
    if take_rule("PlanResourceChange", ["inconsistent_plan"]) and \
            not attr_unknown(marker, "name") and "name" in planned:
        planned["name"] = str(planned.get("name")) + "-changed"
    out = {"planned_state": {"value": planned}, "requires_replace": replace,
           "planned_private": req.get("prior_private", "")}
    if marker:
        out["planned_state"]["unknown"] = marker
    return out


def c_apply(req, hdr):
    tn = req["type_name"]
    key = hdr.get("Idempotency-Key")
    prior, _ = ev_value(req.get("prior_state"))
    planned, _ = ev_value(req.get("planned_state"))
    with LOCK:
        if key and key in STATE["idem"]:
            STATS["duplicates"] += 1
            return STATE["idem"][key]
        if planned is None:
            if tn == "ref_device":
                STATE["devices"].pop((prior or {}).get("id"), None)
            else:
                STATE["entries"].pop((prior or {}).get("key"), None)
            out = {"new_state": {"value": None}}
        else:
            obj = dict(planned)
            n = STATE["next"]
            if tn == "ref_device":
                if prior is None or obj.get("id") is None:
                    STATE["next"] = n + 1
                    STATS["creates"] += 1
                    obj["id"] = "dev-%d" % n
                    obj["serial"] = "SN%05d" % n
                else:
                    obj["id"], obj["serial"] = prior["id"], prior["serial"]
                if take_rule("ApplyResourceChange", ["inconsistent_apply"]):
                    obj["name"] = str(obj.get("name")) + "-x"
                obj = only_schema(tn, obj)
                STATE["devices"][obj["id"]] = obj
            else:
                if prior is None or obj.get("id") is None:
                    STATS["creates"] += 1
                obj["id"] = obj["key"]
                obj["version"] = (prior or {}).get("version", 0) + 1 \
                    if prior is not None and obj.get("version") is None \
                    else obj.get("version") or 1
                STATE["entries"][obj["key"]] = obj
            out = {"new_state": {"value": obj},
                   "private": req.get("planned_private", "")}
        if key:
            STATE["idem"][key] = out
        save()
    return out


def c_import(req, hdr):
    tn, id_ = req["type_name"], req.get("id", "")
    with LOCK:
        src = STATE["devices"] if tn == "ref_device" else STATE["entries"]
        obj = src.get(id_)
    if obj is None:
        return {"diagnostics": [diag("Cannot import non-existent remote "
                                     "object", "no %s with id %r" %
                                     (tn, id_))]}
    return {"imported_resources": [{"type_name": tn, "state":
                                    {"value": only_schema(tn, obj)}}]}


def c_move(req, hdr):
    """MoveResourceState: ref_entry adopts a null_resource whose triggers
    name its key and value (the entry is recorded as it is); the private
    data goes through unchanged.  Anything else is refused."""
    src = req.get("source_state") or {}
    trig = src.get("triggers") or {}
    if (req["type_name"] != "ref_entry" or
            req.get("source_type_name") != "null_resource" or
            "key" not in trig or "value" not in trig):
        return {"diagnostics": [diag(
            "Unable to Move Resource State",
            "ref_entry takes over a null_resource with triggers key and "
            "value, not a %s %s" % (req.get("source_provider_address"),
                                    req.get("source_type_name")))]}
    with LOCK:
        obj = {"id": trig["key"], "key": trig["key"], "value": trig["value"],
               "version": 1}
        STATE["entries"][trig["key"]] = obj
        save()
    return {"target_state": {"value": obj},
            "target_private": req.get("source_private", "")}


def c_read_data(req, hdr):
    v, m = ev_value(req.get("config"))
    with LOCK:
        dev = STATE["devices"].get((v or {}).get("id"))
    if dev is None:
        return {"diagnostics": [diag("No such device", "", "id")]}
    return {"state": {"value": {"id": dev["id"], "name": dev["name"],
                                "model": dev["model"]}}}


def c_get_functions(req, hdr):
    return {"functions": FUNCTIONS, "diagnostics": []}


def c_call_function(req, hdr):
    if req.get("provider_config") is not None:
        raise CallError(400, "bad_request", "functions are called unconfigured")
    if req.get("name") != "device_label":
        return {"error": {"text": "no function %r" % req.get("name")}}
    args = [ev_value(a)[0] for a in req.get("arguments", [])]
    if len(args) < 2:
        raise CallError(400, "bad_request", "device_label takes 2+ arguments")
    site, number = args[0], args[1]
    if site == "":
        return {"error": {"text": "no site given"}}
    if number < 0 or number != int(number):
        return {"error": {"text": "must be a whole number, 0 or more",
                          "function_argument": 1}}
    label = "%s-%04d" % (site.upper(), int(number))
    for sfx in args[2:]:
        label += "-" + sfx
    return {"result": {"value": label}}


def c_open_eph(req, hdr):
    v, m = ev_value(req.get("config"))
    if v.get("fail"):
        return {"diagnostics": [diag("Token refused",
                                     "device %s is locked" % v["device"],
                                     "fail")]}
    with LOCK:
        lease = "L%d" % STATE["next"]
        STATE["next"] += 1
        STATE.setdefault("leases", {})[lease] = {"renewed": 0}
        save()
    out = dict(v, lease=lease, token="tok-%s-%s" % (v["device"], lease))
    ans = {"result": {"value": out},
           "private": base64.b64encode(lease.encode()).decode()}
    if v.get("renew"):
        ans["renew_at"] = 1          # long past: renew before the next use
    return ans


def lease_of(req):
    lease = base64.b64decode(req.get("private", "")).decode()
    with LOCK:
        if lease not in STATE.setdefault("leases", {}):
            return lease, [diag("Unknown lease", "no open lease %r" % lease)]
    return lease, []


def c_renew_eph(req, hdr):
    lease, d = lease_of(req)
    if d:
        return {"diagnostics": d}
    with LOCK:
        STATE["leases"][lease]["renewed"] += 1
        save()
    return {"private": req["private"], "renew_at": int(time.time()) + 3600}


def c_close_eph(req, hdr):
    lease, d = lease_of(req)
    if not d:
        with LOCK:
            STATE["closed"] = STATE.get("closed", []) + [
                "%s renewed=%d" % (lease,
                                   STATE["leases"].pop(lease)["renewed"])]
            save()
    return {"diagnostics": d}


def c_stop(req, hdr):
    return {"error": None}


CALLS = {
    "GetProviderSchema": c_schema,
    "ValidateProviderConfig": c_ok,
    "ValidateResourceConfig": c_validate_resource,
    "ValidateDataResourceConfig": c_ok,
    "UpgradeResourceState": c_upgrade,
    "ConfigureProvider": c_ok,
    "ReadResource": c_read,
    "PlanResourceChange": c_plan,
    "ApplyResourceChange": c_apply,
    "ImportResourceState": c_import,
    "ReadDataSource": c_read_data,
    "StopProvider": c_stop,
    "GetFunctions": c_get_functions,
    "CallFunction": c_call_function,
    "MoveResourceState": c_move,
    "ValidateEphemeralResourceConfig": c_ok,
    "OpenEphemeralResource": c_open_eph,
    "RenewEphemeralResource": c_renew_eph,
    "CloseEphemeralResource": c_close_eph,
}


# ---- HTTP -------------------------------------------------------------------

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # An answer's header and body are two writes: with Nagle's algorithm
    # the second waits for the client's delayed ACK (40 ms on Linux).
    disable_nagle_algorithm = True

    def setup(self):
        with LOCK:
            CONNS[0] += 1
        # The TLS handshake runs here, on the connection's own thread, not
        # in accept() on the serving thread: one slow or failing client
        # must not hold up the others' connections.
        if isinstance(self.request, ssl.SSLSocket):
            self.request.do_handshake()
        http.server.BaseHTTPRequestHandler.setup(self)

    def log_message(self, *args):
        pass

    def reply(self, code, obj, headers=(), raw=None):
        body = raw if raw is not None else json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def drop(self):
        self.close_connection = True
        try:
            self.connection.shutdown(2)
        except OSError:
            pass

    def admin(self, what, req):
        with LOCK:
            if what == "faults":
                FAULTS["latency_ms"] = req.get("latency_ms", 0)
                FAULTS["error_rate"] = req.get("error_rate", 0.0)
                FAULTS["rules"] = req.get("rules", [])
                return {}
            if what == "stats":
                return {"calls": STATS["calls"],
                        "creates": STATS["creates"],
                        "duplicates": STATS["duplicates"],
                        "devices": len(STATE["devices"]),
                        "entries": len(STATE["entries"]),
                        "keys": sorted(STATE["idem"]),
                        "leases": sorted(STATE.get("leases", {})),
                        "closed": STATE.get("closed", []),
                        "connections": CONNS[0]}
            if what == "drift":
                dev = STATE["devices"].get(req.get("id"))
                if dev is not None:
                    if req.get("delete"):
                        del STATE["devices"][req["id"]]
                    else:
                        dev.update(req.get("set", {}))
                    save()
                return {"found": dev is not None}
            if what == "reset":
                STATE.update({"devices": {}, "entries": {}, "next": 1,
                              "idem": {}, "leases": {}, "closed": []})
                STATS.update({"calls": {}, "creates": 0, "duplicates": 0})
                FAULTS.update({"latency_ms": 0, "error_rate": 0.0,
                               "rules": []})
                save()
                return {}
        raise CallError(404, "not_found", "no admin call " + what)

    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(n)
        try:
            req = json.loads(body or b"{}")
        except ValueError:
            return self.reply(400, {"error": {"code": "bad_request",
                                              "message": "invalid JSON"}})
        path = self.path
        if path.startswith("/_admin/"):
            try:
                return self.reply(200, self.admin(path[8:], req))
            except CallError as e:
                return self.reply(e.status, {"error": {
                    "code": e.code, "message": e.message}})
        if not path.startswith(ARGS.prefix + "/"):
            return self.reply(404, {"error": {"code": "not_found",
                                              "message": path}})
        call = path[len(ARGS.prefix) + 1:]
        with LOCK:
            STATS["calls"][call] = STATS["calls"].get(call, 0) + 1
        if ARGS.token and self.headers.get("Authorization") != \
                "Bearer " + ARGS.token:
            return self.reply(401, {"error": {"code": "unauthorized",
                                              "message": "bad token"}})
        if FAULTS["latency_ms"]:
            time.sleep(FAULTS["latency_ms"] / 1000.0)
        if FAULTS["error_rate"] and random.random() < FAULTS["error_rate"]:
            return self.reply(503, {"error": {"code": "unavailable",
                                              "message": "injected"}},
                              [("Retry-After", "0")])
        rule = take_rule(call, ["status", "drop", "truncate", "garbage",
                                "wrong_type", "latency",
                                "drop_after_apply"])
        if rule:
            k = rule["kind"]
            if k == "latency":
                time.sleep(rule.get("ms", 100) / 1000.0)
            elif k == "status":
                h = []
                if "retry_after" in rule:
                    h.append(("Retry-After", str(rule["retry_after"])))
                return self.reply(rule.get("status", 503), {"error": {
                    "code": "injected", "message": "injected fault"}}, h)
            elif k == "drop":
                return self.drop()
            elif k == "truncate":
                self.send_response(200)
                self.send_header("Content-Length", "1000")
                self.end_headers()
                self.wfile.write(b'{"diagnostics": [')
                return self.drop()
            elif k == "garbage":
                return self.reply(200, None, raw=b"<html>oops</html>")
            elif k == "wrong_type":
                return self.reply(200, {"new_state": {"value": {
                    "id": 42}}, "planned_state": {"value": 7},
                    "state": {"value": "x"}})
        fn = CALLS.get(call)
        if fn is None:
            return self.reply(404, {"error": {"code": "not_found",
                                              "message": "no call " + call}})
        try:
            out = fn(req, self.headers)
        except CallError as e:
            return self.reply(e.status, {"error": {"code": e.code,
                                                   "message": e.message}})
        except (KeyError, TypeError, AttributeError, ValueError) as e:
            return self.reply(400, {"error": {"code": "bad_request",
                                              "message": repr(e)}})
        if rule and rule["kind"] == "drop_after_apply":
            return self.drop()
        return self.reply(200, out)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    # socketserver's default backlog of 5 overflows when a client opens
    # its pool of connections at once: the kernel drops the extra SYNs and
    # the client retransmits them a second later.
    request_queue_size = 128

    def handle_error(self, request, client_address):
        # A failed TLS handshake or a client gone mid-request is the
        # client's business (the TLS e2e cases make them on purpose).
        if isinstance(sys.exc_info()[1], OSError):  # ssl.SSLError too
            return
        super().handle_error(request, client_address)


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--cert")
    ap.add_argument("--key")
    ap.add_argument("--client-ca", help="require a client certificate")
    ap.add_argument("--data", help="JSON file holding the objects")
    ap.add_argument("--token", help="require Authorization: Bearer TOKEN")
    ap.add_argument("--prefix", default="", help="path of the endpoint")
    ARGS = ap.parse_args()
    ARGS.prefix = ARGS.prefix.rstrip("/")
    load()
    srv = Server(("127.0.0.1", ARGS.port), Handler)
    if ARGS.cert:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.minimum_version = ssl.TLSVersion.TLSv1_2
        ctx.load_cert_chain(ARGS.cert, ARGS.key)
        if ARGS.client_ca:
            ctx.verify_mode = ssl.CERT_REQUIRED
            ctx.load_verify_locations(ARGS.client_ca)
        srv.socket = ctx.wrap_socket(srv.socket, server_side=True,
                                     do_handshake_on_connect=False)
    print(srv.server_address[1], flush=True)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
