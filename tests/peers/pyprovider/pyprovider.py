#!/usr/bin/python3
"""pytest: a small Terraform provider plugin in Python, for cairn's tests.

It shows what HashiCorp's null provider cannot: computed attributes, an
attribute that forces replacement, nested blocks (list and set), a
sensitive attribute, provider-private data, tfplugin6 nested attributes,
a data source, import, a schema upgrade from version 0 to 1, provider
functions and MoveResourceState from null_resource.  It is independent
of cairn: gRPC and protobuf are Debian's python3-grpcio and
python3-grpc-tools, and the message classes are built at start from
cairn's proto/*.proto plus ext.proto (what those lack) by
grpc_tools.protoc into a cache directory (build/cache/pyprovider, or
$PYPROVIDER_CACHE), never committed.

Run as terraform-provider-pytest (tfplugin5) or terraform-provider-pytest-v6
(tfplugin6); `pyprovider.py -protocol=N` does the same.  It speaks
go-plugin's handshake: the magic cookie check, the line
`1|N|unix|SOCKET|grpc[|CERT]` on stdout, AutoMTLS when PLUGIN_CLIENT_CERT
is set (a self-signed P-521 certificate from openssl, sent base64 DER in
the sixth field, client certificate required), the GRPCController Shutdown
service and the grpc.health.v1 service.  PYPROVIDER_NO_TLS=1 makes it
ignore PLUGIN_CLIENT_CERT, as plugins from before AutoMTLS do.

The objects it manages live in STATE_DIR/pytest-state.json, STATE_DIR
being the provider's `state_dir` argument or $PYPROVIDER_STATE_DIR, so that
tests can look at them and change them behind cairn's back (drift).  With
$PYPROVIDER_CALL_LOG set, every call appends one line (method and what
matters about it) to that file.

A plugin that dies in the middle of a call, for the tests of what cairn
and `cairn gateway` make of it: when STATE_DIR/die-on-apply exists and
holds the `name` of a pytest_thing, the ApplyResourceChange that creates
or updates that thing writes one line to stderr and kills the plugin
process (SIGKILL, itself) before it answers or stores anything.  A file
rather than an environment variable, so that it reaches a plugin the
gateway runs with a minimal environment, and a test can arm it between
two runs.
"""
import base64
import concurrent.futures
import copy
import fcntl
import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True     # no __pycache__ in the source tree
sys.path.insert(0, HERE)
import ctymsgpack as mp  # noqa: E402
from ctymsgpack import UNKNOWN  # noqa: E402

COOKIE_KEY = "TF_PLUGIN_MAGIC_COOKIE"
COOKIE = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2"
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
STATE_FILE = "pytest-state.json"


def die(msg):
    sys.stderr.write("pytest provider: " + msg + "\n")
    sys.exit(1)


# ---- message classes, built from the proto files ---------------------------

def load_messages():
    """Runs grpc_tools.protoc once per content of the proto files into the
    cache (a descriptor set: independent of the protoc/runtime versions'
    generated-code quirks) and returns {full name: class}."""
    from google.protobuf import descriptor_pb2, message_factory
    files = [os.path.join(REPO, "proto", n) for n in
             ("tfplugin5.proto", "tfplugin6.proto", "grpc_controller.proto")]
    files.append(os.path.join(HERE, "ext.proto"))
    h = hashlib.sha256()
    for f in files:
        with open(f, "rb") as fh:
            h.update(fh.read())
    cache = os.environ.get("PYPROVIDER_CACHE") or os.path.join(
        REPO, "build", "cache", "pyprovider")
    os.makedirs(cache, exist_ok=True)
    out = os.path.join(cache, "protos-%s.pb" % h.hexdigest()[:16])
    if not os.path.exists(out):
        from grpc_tools import protoc
        tmp = "%s.%d.tmp" % (out, os.getpid())
        args = ["protoc", "-I" + os.path.join(REPO, "proto"), "-I" + HERE,
                "--descriptor_set_out=" + tmp] + [os.path.basename(f)
                                                  for f in files]
        if protoc.main(args) != 0:
            die("grpc_tools.protoc failed on " + " ".join(files))
        os.replace(tmp, out)    # atomic: parallel starts share the cache
    fds = descriptor_pb2.FileDescriptorSet()
    with open(out, "rb") as fh:
        fds.ParseFromString(fh.read())
    from google.protobuf import descriptor_pool
    pool = descriptor_pool.DescriptorPool()
    for fp in fds.file:
        pool.Add(fp)
    factory = message_factory.MessageFactory(pool)
    msgs = {}      # every message, nested ones too, by full name

    def walk(desc):
        msgs[desc.full_name] = factory.GetPrototype(desc)
        for n in desc.nested_types:
            walk(n)
    for fp in fds.file:
        fd = pool.FindFileByName(fp.name)
        for desc in fd.message_types_by_name.values():
            walk(desc)
    return msgs


# ---- schemas ---------------------------------------------------------------
# An attribute: (name, type or nested, flags); flags from "required",
# "optional", "computed", "sensitive".  A nested attribute type (v6 only):
# ("nested", nesting, [attributes]).  A block: (type_name, nesting, body).

def thing_body(version):
    attrs = [
        ("id", "string", "computed"),
        ("name", "string", "required"),                 # forces replacement
        ("size", "number", "optional"),
        ("serial", "number", "computed"),               # bumped per update
        ("password", "string", "optional sensitive"),
        ("tags", ["map", "string"], "optional"),
    ]
    if version == 6:
        attrs.append(("endpoint", ("nested", "single", [
            ("host", "string", "required"),
            ("port", "number", "optional computed"),   # default 443
        ]), "optional"))
        attrs.append(("disks", ("nested", "list", [
            ("size", "number", "required"),
            ("kind", "string", "optional computed"),   # default "ssd"
        ]), "optional"))
    blocks = [
        ("rule", "list", {"attrs": [
            ("port", "number", "required"),
            ("proto", "string", "optional computed"),  # default "tcp"
        ], "blocks": []}),
        ("label", "set", {"attrs": [
            ("key", "string", "required"),
            ("value", "string", "optional"),
        ], "blocks": []}),
    ]
    return {"attrs": attrs, "blocks": blocks}


PROVIDER_BODY = {"attrs": [("state_dir", "string", "optional")], "blocks": []}
ECHO_BODY = {"attrs": [("input", "string", "required"),
                       ("upper", "string", "computed"),
                       ("length", "number", "computed")], "blocks": []}
THING_VERSION = 1
# The ephemeral resource pytest_secret: a lease on a made-up secret.
SECRET_BODY = {"attrs": [("name", "string", "required"),
                         ("renew", "bool", "optional"),
                         ("fail", "bool", "optional"),
                         ("lease", "string", "computed"),
                         ("value", "string", "computed sensitive")],
               "blocks": []}


def nested_type(n):
    _, nesting, attrs = n
    obj = ["object", {a[0]: attr_type(a[1]) for a in attrs}]
    return obj if nesting == "single" else [nesting, obj]


def attr_type(t):
    return nested_type(t) if isinstance(t, tuple) else t


def body_type(body):
    at = {a[0]: attr_type(a[1]) for a in body["attrs"]}
    for name, nesting, b in body["blocks"]:
        obj = body_type(b)
        at[name] = obj if nesting == "single" else [nesting, obj]
    return ["object", at]


def jtype(t):
    return json.dumps(t, separators=(",", ":")).encode()


class Proto:
    """The message classes of one protocol version."""

    def __init__(self, msgs, version):
        self.v = version
        pk = "tfplugin%d." % version
        self.m = {k[len(pk):]: c for k, c in msgs.items()
                  if k.startswith(pk)}
        self.x = {k[len("pyprovider_ext."):]: c for k, c in msgs.items()
                  if k.startswith("pyprovider_ext.")}
        self.empty = msgs["plugin.Empty"]

    def __getattr__(self, name):
        return self.m[name]

    def attribute(self, a):
        name, t, flags = a
        pa = self.m["Schema.Attribute"](name=name,
                                        required="required" in flags,
                                        optional="optional" in flags,
                                        computed="computed" in flags,
                                        sensitive="sensitive" in flags)
        if isinstance(t, tuple):
            _, nesting, attrs = t
            modes = {"single": 1, "list": 2, "set": 3, "map": 4}
            pa.nested_type.nesting = modes[nesting]
            for sub in attrs:
                pa.nested_type.attributes.append(self.attribute(sub))
        else:
            pa.type = jtype(t)
        return pa

    def block(self, body, version=0):
        b = self.m["Schema.Block"](version=version)
        for a in body["attrs"]:
            b.attributes.append(self.attribute(a))
        modes = {"single": 1, "list": 2, "set": 3, "map": 4}
        for name, nesting, sub in body["blocks"]:
            b.block_types.append(self.m["Schema.NestedBlock"](
                type_name=name, nesting=modes[nesting],
                block=self.block(sub)))
        return b

    def schema(self, body, version=0):
        return self.m["Schema"](version=version,
                                block=self.block(body, version))

    def diag(self, summary, detail="", path=None, warning=False):
        d = self.m["Diagnostic"](severity=2 if warning else 1,
                                 summary=summary, detail=detail)
        for step in path or []:
            if isinstance(step, int):
                d.attribute.steps.add(element_key_int=step)
            else:
                d.attribute.steps.add(attribute_name=step)
        return d

    def dv(self, value, ty):
        return self.m["DynamicValue"](msgpack=mp.encode(value, ty))


def dv_in(dv, ty):
    """A DynamicValue's content, None for an absent one (null)."""
    if dv is None:
        return None
    if dv.msgpack:
        return mp.typed(mp.decode(dv.msgpack), ty)
    if dv.json:
        return mp.typed(json.loads(dv.json), ty)
    return None


# ---- the objects it manages ------------------------------------------------

class Store:
    """STATE_DIR/pytest-state.json: {"next": N, "things": {id: {"attrs":
    {...}, "private": "..."}}}.  One process may serve several calls at
    once and several processes may share the file: a lock per process and
    an flock around every read-modify-write."""

    lock = threading.Lock()

    def __init__(self, d):
        self.path = os.path.join(d, STATE_FILE)
        self.die_path = os.path.join(d, "die-on-apply")

    def die_on(self, name):
        """True when die-on-apply names this thing (see the docstring)."""
        try:
            with open(self.die_path, encoding="utf-8") as f:
                return f.read().strip() == name
        except FileNotFoundError:
            return False

    def update(self, fn):
        with self.lock:
            fd = os.open(self.path + ".lock", os.O_CREAT | os.O_RDWR, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                try:
                    with open(self.path, encoding="utf-8") as f:
                        data = json.load(f)
                except FileNotFoundError:
                    data = {"next": 1, "things": {}}
                before = json.dumps(data, sort_keys=True)
                res = fn(data)
                if json.dumps(data, sort_keys=True) != before:
                    tmp = self.path + ".tmp"
                    with open(tmp, "w", encoding="utf-8") as f:
                        json.dump(data, f, indent=2, sort_keys=True)
                        f.write("\n")
                    os.replace(tmp, self.path)
                return res
            finally:
                os.close(fd)


def call_log(line):
    path = os.environ.get("PYPROVIDER_CALL_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(line + "\n")


def has_unknown(v):
    if v is UNKNOWN:
        return True
    if isinstance(v, list):
        return any(has_unknown(e) for e in v)
    if isinstance(v, dict):
        return any(has_unknown(e) for e in v.values())
    return False


class Provider:
    def __init__(self, proto):
        self.p = proto
        self.v = proto.v
        self.store = None
        self.body = thing_body(self.v)
        self.thing_t = body_type(self.body)
        self.echo_t = body_type(ECHO_BODY)
        self.prov_t = body_type(PROVIDER_BODY)
        self.secret_t = body_type(SECRET_BODY)
        self.leases = 0
        self.lease_lock = threading.Lock()

    # -- schema
    def get_schema(self, req, ctx):
        call_log("GetProviderSchema")
        p = self.p
        r = p.m["GetProviderSchema.Response"](
            provider=p.schema(PROVIDER_BODY))
        r.resource_schemas["pytest_thing"].CopyFrom(
            p.schema(self.body, THING_VERSION))
        r.data_source_schemas["pytest_echo"].CopyFrom(p.schema(ECHO_BODY))
        r.ephemeral_resource_schemas["pytest_secret"].CopyFrom(
            p.schema(SECRET_BODY))
        # The functions field (7) is not in cairn's proto: appended as its
        # own encoded field, which protobuf readers merge.
        ext = p.x["SchemaFunctions"]()
        for name, fn in self.functions().items():
            ext.functions[name].CopyFrom(fn)
        return RawReply(r.SerializeToString() + ext.SerializeToString())

    def get_metadata(self, req, ctx):
        call_log("GetMetadata")
        x = self.p.x
        r = x["GetMetadata.Response"]()
        r.resources.add(type_name="pytest_thing")
        r.data_sources.add(type_name="pytest_echo")
        for name in sorted(self.functions()):
            r.functions.add(name=name)
        return r

    def functions(self):
        """upper(s) and repeat(s, n): repeat's error names its argument
        (FunctionError.function_argument), as Terraform reports it."""
        up = self.p.x["Function"](summary="Upper-cases a string")
        up.parameters.add(name="s", type=jtype("string"))
        getattr(up, "return").type = jtype("string")
        rep = self.p.x["Function"](summary="Repeats a string n times")
        rep.parameters.add(name="s", type=jtype("string"))
        rep.parameters.add(name="n", type=jtype("number"))
        getattr(rep, "return").type = jtype("string")
        return {"upper": up, "repeat": rep}

    def get_functions(self, req, ctx):
        call_log("GetFunctions")
        r = self.p.x["GetFunctions.Response"]()
        for name, fn in self.functions().items():
            r.functions[name].CopyFrom(fn)
        return r

    def call_function(self, req, ctx):
        x = self.p.x
        r = x["CallFunction.Response"]()
        if req.name == "repeat":
            return self.call_repeat(req, r)
        if req.name != "upper":
            r.error.text = "no function named %r" % req.name
            return r
        if len(req.arguments) != 1:
            r.error.text = "upper takes one argument"
            return r
        s = dv_in(req.arguments[0], "string")
        call_log("CallFunction upper %r" % (s,))
        if s is None:
            r.error.text = "the argument must not be null"
            r.error.function_argument = 0
            return r
        r.result.msgpack = mp.encode(s.upper(), "string")
        return r

    def call_repeat(self, req, r):
        if len(req.arguments) != 2:
            r.error.text = "repeat takes two arguments"
            return r
        s = dv_in(req.arguments[0], "string")
        n = dv_in(req.arguments[1], "number")
        call_log("CallFunction repeat %r %r" % (s, n))
        if n != int(n) or n < 0:
            r.error.text = "must be a whole number, not negative, got %g" % n
            r.error.function_argument = 1
            return r
        if len(s) * int(n) > 1000:
            r.error.text = "the result would be longer than 1000 characters"
            return r
        r.result.msgpack = mp.encode(s * int(n), "string")
        return r

    # -- provider
    def validate_provider(self, req, ctx):
        call_log("ValidateProviderConfig")
        r = (self.p.m["PrepareProviderConfig.Response"]() if self.v == 5
             else self.p.m["ValidateProviderConfig.Response"]())
        if self.v == 5:
            r.prepared_config.CopyFrom(req.config)
        return r

    def configure(self, req, ctx):
        cfg = dv_in(req.config, self.prov_t) or {}
        d = cfg.get("state_dir")
        if d is UNKNOWN:
            d = None
        d = d or os.environ.get("PYPROVIDER_STATE_DIR")
        name = "Configure" if self.v == 5 else "ConfigureProvider"
        call_log("%s terraform_version=%s" % (name, req.terraform_version))
        r = self.p.m[name + ".Response"]()
        if not d:
            r.diagnostics.append(self.p.diag(
                "No state directory",
                "Set the provider's state_dir or PYPROVIDER_STATE_DIR.",
                ["state_dir"]))
        elif not os.path.isdir(d):
            r.diagnostics.append(self.p.diag(
                "State directory does not exist", d, ["state_dir"]))
        else:
            self.store = Store(d)
        return r

    def stop(self, req, ctx):
        call_log("StopProvider")
        return (self.p.m["Stop.Response"]() if self.v == 5
                else self.p.m["StopProvider.Response"]())

    # -- validation
    def validate_resource(self, req, ctx):
        p = self.p
        name = ("ValidateResourceTypeConfig" if self.v == 5
                else "ValidateResourceConfig")
        r = p.m[name + ".Response"]()
        call_log("%s %s" % (name, req.type_name))
        if req.type_name != "pytest_thing":
            r.diagnostics.append(p.diag("Unknown resource type",
                                        req.type_name))
            return r
        cfg = dv_in(req.config, self.thing_t)
        size = cfg.get("size")
        if isinstance(size, (int, float)) and size < 0:
            r.diagnostics.append(p.diag(
                "Invalid size", "size must not be negative, got %g." % size,
                ["size"]))
        for i, rule in enumerate(cfg.get("rule") or []):
            port = rule.get("port") if isinstance(rule, dict) else None
            if isinstance(port, (int, float)) and not 0 < port < 65536:
                r.diagnostics.append(p.diag(
                    "Invalid port", "port must be 1 to 65535.",
                    ["rule", i, "port"]))
        return r

    def validate_data(self, req, ctx):
        name = ("ValidateDataSourceConfig" if self.v == 5
                else "ValidateDataResourceConfig")
        call_log("%s %s" % (name, req.type_name))
        r = self.p.m[name + ".Response"]()
        if req.type_name != "pytest_echo":
            r.diagnostics.append(self.p.diag("Unknown data source",
                                             req.type_name))
        return r

    # -- managed resources
    def need_store(self, r):
        if self.store is None:
            r.diagnostics.append(self.p.diag(
                "Provider not configured",
                "ConfigureProvider was not called before this call."))
            return False
        return True

    def upgrade(self, req, ctx):
        p = self.p
        r = p.m["UpgradeResourceState.Response"]()
        call_log("UpgradeResourceState %s version=%d" %
                 (req.type_name, req.version))
        if req.type_name != "pytest_thing":
            r.diagnostics.append(p.diag("Unknown resource type",
                                        req.type_name))
            return r
        if not req.raw_state.json:
            r.diagnostics.append(p.diag("Flatmap state is not supported",
                                        "pytest writes JSON state only."))
            return r
        old = json.loads(req.raw_state.json)
        if req.version == 0:
            # Version 0 called `name` `title` and kept size as a string.
            old["name"] = old.pop("title", None)
            if isinstance(old.get("size"), str):
                old["size"] = float(old["size"])
        elif req.version != THING_VERSION:
            r.diagnostics.append(p.diag(
                "Unsupported schema version",
                "pytest_thing state version %d is newer than %d." %
                (req.version, THING_VERSION)))
            return r
        unknown = sorted(set(old) - set(self.thing_t[1]))
        if unknown:
            r.diagnostics.append(p.diag(
                "Unsupported attribute in stored state",
                "pytest_thing has no attribute %r." % unknown[0]))
            return r
        new = mp.typed(old, self.thing_t)
        r.upgraded_state.CopyFrom(p.dv(new, self.thing_t))
        return r

    def check_private(self, r, want, got, call):
        if want is not None and got != want.encode():
            r.diagnostics.append(self.p.diag(
                "Private data not sent back",
                "%s got private data %r, expected %r." %
                (call, got, want.encode())))

    def read(self, req, ctx):
        p = self.p
        r = p.m["ReadResource.Response"]()
        call_log("ReadResource %s private=%s" % (req.type_name,
                                                 req.private.decode()))
        if not self.need_store(r):
            return r
        cur = dv_in(req.current_state, self.thing_t)

        def get(d):
            obj = d["things"].get(cur["id"])
            if obj is None and b'"moved_from"' in req.private:
                # adopted by MoveResourceState: recorded on first sight
                obj = {"attrs": cur, "private": req.private.decode()}
                d["things"][cur["id"]] = obj
            return copy.deepcopy(obj)
        obj = self.store.update(get)
        if obj is None:                      # gone: Terraform drops it
            r.new_state.CopyFrom(p.dv(None, self.thing_t))
            return r
        self.check_private(r, obj["private"], req.private, "ReadResource")
        r.new_state.CopyFrom(p.dv(mp.typed(obj["attrs"], self.thing_t),
                                  self.thing_t))
        r.private = req.private
        return r

    def defaults(self, v):
        """Optional+computed attributes left null in the configuration get
        their defaults, in nested blocks and nested attributes too."""
        for rule in v.get("rule") or []:
            if isinstance(rule, dict) and rule.get("proto") is None:
                rule["proto"] = "tcp"
        ep = v.get("endpoint")
        if isinstance(ep, dict) and ep.get("port") is None:
            ep["port"] = 443
        for disk in v.get("disks") or []:
            if isinstance(disk, dict) and disk.get("kind") is None:
                disk["kind"] = "ssd"

    def plan(self, req, ctx):
        p = self.p
        r = p.m["PlanResourceChange.Response"]()
        prior = dv_in(req.prior_state, self.thing_t)
        prop = dv_in(req.proposed_new_state, self.thing_t)
        call_log("PlanResourceChange %s %s prior_private=%s" % (
            req.type_name,
            "destroy" if prop is None else "create" if prior is None
            else "update", req.prior_private.decode()))
        if prop is None:
            r.planned_state.CopyFrom(p.dv(None, self.thing_t))
            return r
        if prior is not None:
            if not self.need_store(r):
                return r
            obj = self.store.update(lambda d: copy.deepcopy(
                d["things"].get(prior["id"])))
            if obj is not None:
                self.check_private(r, obj["private"], req.prior_private,
                                   "PlanResourceChange")
        planned = copy.deepcopy(prop)
        self.defaults(planned)
        if prior is None:
            planned["id"] = UNKNOWN
            planned["serial"] = UNKNOWN
            r.planned_private = b'{"planned":"create"}'
        else:
            replace = prop["name"] != prior["name"]
            if replace:
                r.requires_replace.add().steps.add(attribute_name="name")
                planned["id"] = UNKNOWN
                planned["serial"] = UNKNOWN
            else:
                planned["id"] = prior["id"]
                keys = [k for k in planned if k not in ("id", "serial")]
                changed = any(planned[k] != prior.get(k) for k in keys)
                planned["serial"] = UNKNOWN if changed else prior["serial"]
            r.planned_private = req.prior_private
        r.planned_state.CopyFrom(p.dv(planned, self.thing_t))
        return r

    def apply(self, req, ctx):
        p = self.p
        r = p.m["ApplyResourceChange.Response"]()
        prior = dv_in(req.prior_state, self.thing_t)
        planned = dv_in(req.planned_state, self.thing_t)
        call_log("ApplyResourceChange %s %s planned_private=%s" % (
            req.type_name,
            "delete" if planned is None else "create" if prior is None
            else "update", req.planned_private.decode()))
        if not self.need_store(r):
            return r
        if planned is not None and self.store.die_on(planned.get("name")):
            sys.stderr.write("pytest: killed in ApplyResourceChange of %s "
                             "(die-on-apply)\n" % planned.get("name"))
            sys.stderr.flush()
            os.kill(os.getpid(), signal.SIGKILL)
        if planned is None:
            self.store.update(lambda d: d["things"].pop(prior["id"], None))
            r.new_state.CopyFrom(p.dv(None, self.thing_t))
            return r
        if prior is None and req.planned_private != b'{"planned":"create"}':
            self.check_private(r, '{"planned":"create"}',
                               req.planned_private, "ApplyResourceChange")
            return r
        new = copy.deepcopy(planned)
        if has_unknown({k: v for k, v in new.items()
                        if k not in ("id", "serial")}):
            r.diagnostics.append(p.diag(
                "Unknown value at apply",
                "The planned state still has unknown values."))
            return r

        def write(d):
            if prior is not None:
                obj = d["things"].get(prior["id"])
                want = obj["private"] if obj else None
                self.check_private(r, want, req.planned_private,
                                   "ApplyResourceChange")
            if new["id"] is UNKNOWN:
                new["id"] = "thing-%d" % d["next"]
                d["next"] += 1
            old = d["things"].get(new["id"])
            new["serial"] = (old["attrs"]["serial"] + 1) if old else 1
            priv = json.dumps({"id": new["id"], "serial": new["serial"]},
                              separators=(",", ":"), sort_keys=True)
            d["things"][new["id"]] = {"attrs": new, "private": priv}
            return priv
        priv = self.store.update(write)
        r.new_state.CopyFrom(p.dv(new, self.thing_t))
        r.private = priv.encode()
        return r

    def import_state(self, req, ctx):
        p = self.p
        r = p.m["ImportResourceState.Response"]()
        call_log("ImportResourceState %s %s" % (req.type_name, req.id))
        if not self.need_store(r):
            return r
        obj = self.store.update(lambda d: copy.deepcopy(
            d["things"].get(req.id)))
        if obj is None:
            r.diagnostics.append(p.diag(
                "Cannot import non-existent remote object",
                "There is no pytest_thing with id %r." % req.id))
            return r
        ir = r.imported_resources.add(type_name=req.type_name,
                                      private=obj["private"].encode())
        ir.state.CopyFrom(p.dv(mp.typed(obj["attrs"], self.thing_t),
                               self.thing_t))
        return r

    # -- moves across resource types (protocol 5.5 / 6.5)
    def move_state(self, req, ctx):
        """MoveResourceState: a hashicorp/null null_resource (schema
        version 0) becomes a pytest_thing that adopts the null resource's
        id and takes its name from triggers.name.  A pure transformation,
        as in real providers (it may come before ConfigureProvider): the
        private data it answers marks the object as moved, and the first
        ReadResource of it records it in the store, as a real provider
        would find the remote object the old resource stood for.  Any
        other source is refused with a diagnostic."""
        p = self.p
        r = p.m["MoveResourceState.Response"]()
        src = req.source_state.json.decode() if req.source_state.json else ""
        call_log("MoveResourceState %s %s v%d -> %s state=%s private=%s" % (
            req.source_provider_address, req.source_type_name,
            req.source_schema_version, req.target_type_name, src,
            req.source_private.decode()))
        if (req.target_type_name != "pytest_thing" or
                req.source_type_name != "null_resource" or
                not req.source_provider_address.endswith("/hashicorp/null")
                or req.source_schema_version != 0):
            r.diagnostics.append(p.diag(
                "Unable to Move Resource State",
                "pytest_thing can take over only a hashicorp/null "
                "null_resource of schema version 0, not %s's %s version "
                "%d." % (req.source_provider_address, req.source_type_name,
                         req.source_schema_version)))
            return r
        old = json.loads(src or "{}")
        name = ((old.get("triggers") or {}).get("name")) or "moved"
        new = {k: None for k in self.thing_t[1]}
        new.update({"id": old.get("id"), "name": name, "serial": 1,
                    "rule": [], "label": []})   # blocks are never null
        new = mp.typed(new, self.thing_t)
        priv = json.dumps({"id": new["id"], "moved_from": "null_resource"},
                          separators=(",", ":"), sort_keys=True)
        r.target_state.CopyFrom(p.dv(new, self.thing_t))
        r.target_private = priv.encode()
        return r

    # -- data source
    def read_data(self, req, ctx):
        p = self.p
        r = p.m["ReadDataSource.Response"]()
        cfg = dv_in(req.config, self.echo_t)
        call_log("ReadDataSource %s input=%r" % (req.type_name,
                                                 cfg.get("input")))
        s = cfg.get("input")
        if s is UNKNOWN:
            r.diagnostics.append(p.diag("Unknown input",
                                        "ReadDataSource got an unknown "
                                        "input.", ["input"]))
            return r
        out = {"input": s, "upper": s.upper(), "length": len(s)}
        r.state.CopyFrom(p.dv(out, self.echo_t))
        return r


    # -- ephemeral resource (protocol 5.7 / 6.7)
    def validate_eph(self, req, ctx):
        p = self.p
        r = p.m["ValidateEphemeralResourceConfig.Response"]()
        call_log("ValidateEphemeralResourceConfig %s" % req.type_name)
        cfg = dv_in(req.config, self.secret_t)
        if cfg.get("name") == "":
            r.diagnostics.append(p.diag("Invalid name",
                                        "name must not be empty.",
                                        ["name"]))
        return r

    def open_eph(self, req, ctx):
        """A lease per Open: private data names it; renew = true asks for
        a renewal at once (renew_at in the past), so the first use after
        the open renews it, deterministically."""
        p = self.p
        r = p.m["OpenEphemeralResource.Response"]()
        cfg = dv_in(req.config, self.secret_t)
        call_log("OpenEphemeralResource %s name=%s" % (req.type_name,
                                                       cfg["name"]))
        if cfg.get("fail"):
            r.diagnostics.append(p.diag(
                "Could not open secret",
                "The secret %s is locked." % cfg["name"], ["fail"]))
            return r
        with self.lease_lock:
            self.leases += 1
            lease = "lease-%s-%d" % (cfg["name"], self.leases)
        out = dict(cfg)
        out.update({"lease": lease, "value": "s3cr3t-" + cfg["name"]})
        r.result.CopyFrom(p.dv(out, self.secret_t))
        r.private = json.dumps({"lease": lease, "renewed": 0},
                               sort_keys=True).encode()
        if cfg.get("renew"):
            r.renew_at.seconds = 1
        return r

    def renew_eph(self, req, ctx):
        p = self.p
        r = p.m["RenewEphemeralResource.Response"]()
        call_log("RenewEphemeralResource %s private=%s" %
                 (req.type_name, req.private.decode()))
        priv = json.loads(req.private.decode())
        priv["renewed"] += 1
        r.private = json.dumps(priv, sort_keys=True).encode()
        # the next renewal far away: one renewal per walk
        r.renew_at.seconds = int(time.time()) + 3600
        return r

    def close_eph(self, req, ctx):
        call_log("CloseEphemeralResource %s private=%s" %
                 (req.type_name, req.private.decode()))
        return self.p.m["CloseEphemeralResource.Response"]()


class RawReply:
    """An answer already encoded (see get_schema)."""

    def __init__(self, b):
        self.b = b


def serializer(cls):
    def ser(msg):
        return msg.b if isinstance(msg, RawReply) else msg.SerializeToString()
    return ser


# ---- serving ---------------------------------------------------------------

def server_tls(tmp, client_pem):
    """go-plugin's AutoMTLS server side: a fresh self-signed certificate
    (P-521, CN and DNS name localhost), the client's certificate the only
    one trusted.  Returns (credentials, base64 DER without padding)."""
    import grpc
    key = os.path.join(tmp, "key.pem")
    crt = os.path.join(tmp, "cert.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec",
                    "-pkeyopt", "ec_paramgen_curve:P-521", "-nodes",
                    "-keyout", key, "-out", crt, "-days", "1",
                    "-subj", "/O=pytest/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost",
                    "-addext", "basicConstraints=critical,CA:TRUE",
                    "-addext", "extendedKeyUsage=serverAuth,clientAuth"],
                   check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    der = subprocess.run(["openssl", "x509", "-in", crt, "-outform", "DER"],
                         check=True, stdout=subprocess.PIPE).stdout
    with open(key, "rb") as f:
        key_pem = f.read()
    with open(crt, "rb") as f:
        crt_pem = f.read()
    creds = grpc.ssl_server_credentials([(key_pem, crt_pem)],
                                        root_certificates=client_pem.encode(),
                                        require_client_auth=True)
    return creds, base64.b64encode(der).decode().rstrip("=")


def main():
    version = 6 if os.path.basename(sys.argv[0]).endswith("-v6") else 5
    for a in sys.argv[1:]:
        if a.startswith("-protocol="):
            version = int(a.split("=", 1)[1])
    if os.environ.get(COOKIE_KEY) != COOKIE:
        sys.stderr.write(
            "This binary is a plugin. These are not meant to be executed "
            "directly.\nPlease execute the program that consumes these "
            "plugins, which will\nload any plugins automatically\n")
        sys.exit(1)
    offered = os.environ.get("PLUGIN_PROTOCOL_VERSIONS", "")
    if offered and str(version) not in offered.split(","):
        die("protocol %d not among PLUGIN_PROTOCOL_VERSIONS=%s" %
            (version, offered))

    import grpc
    msgs = load_messages()
    proto = Proto(msgs, version)
    prov = Provider(proto)
    m = proto.m
    x = proto.x
    if version == 5:
        names = {"GetSchema": ("GetProviderSchema", prov.get_schema),
                 "PrepareProviderConfig": ("PrepareProviderConfig",
                                           prov.validate_provider),
                 "ValidateResourceTypeConfig": ("ValidateResourceTypeConfig",
                                                prov.validate_resource),
                 "ValidateDataSourceConfig": ("ValidateDataSourceConfig",
                                              prov.validate_data),
                 "Configure": ("Configure", prov.configure),
                 "Stop": ("Stop", prov.stop)}
    else:
        names = {"GetProviderSchema": ("GetProviderSchema", prov.get_schema),
                 "ValidateProviderConfig": ("ValidateProviderConfig",
                                            prov.validate_provider),
                 "ValidateResourceConfig": ("ValidateResourceConfig",
                                            prov.validate_resource),
                 "ValidateDataResourceConfig": ("ValidateDataResourceConfig",
                                                prov.validate_data),
                 "ConfigureProvider": ("ConfigureProvider", prov.configure),
                 "StopProvider": ("StopProvider", prov.stop)}
    for n, fn in (("UpgradeResourceState", prov.upgrade),
                  ("ReadResource", prov.read),
                  ("PlanResourceChange", prov.plan),
                  ("ApplyResourceChange", prov.apply),
                  ("ImportResourceState", prov.import_state),
                  ("ReadDataSource", prov.read_data)):
        names[n] = (n, fn)
    # PYPROVIDER_NO_MOVE=1 plays a plugin from before protocol 5.5 / 6.5:
    # MoveResourceState is then answered gRPC's Unimplemented.
    if not os.environ.get("PYPROVIDER_NO_MOVE"):
        names["MoveResourceState"] = ("MoveResourceState", prov.move_state)
    # PYPROVIDER_NO_EPHEMERAL=1 lists pytest_secret but answers its calls
    # gRPC's Unimplemented, as a plugin that lost them would.
    if not os.environ.get("PYPROVIDER_NO_EPHEMERAL"):
        for n, fn in (("ValidateEphemeralResourceConfig", prov.validate_eph),
                      ("OpenEphemeralResource", prov.open_eph),
                      ("RenewEphemeralResource", prov.renew_eph),
                      ("CloseEphemeralResource", prov.close_eph)):
            names[n] = (n, fn)
    handlers = {}
    for method, (msg, fn) in names.items():
        handlers[method] = grpc.unary_unary_rpc_method_handler(
            fn, request_deserializer=m[msg + ".Request"].FromString,
            response_serializer=serializer(m[msg + ".Response"]))
    for method, fn in (("GetMetadata", prov.get_metadata),
                       ("GetFunctions", prov.get_functions),
                       ("CallFunction", prov.call_function)):
        handlers[method] = grpc.unary_unary_rpc_method_handler(
            fn, request_deserializer=x[method + ".Request"].FromString,
            response_serializer=serializer(None))

    done = threading.Event()
    server = grpc.server(concurrent.futures.ThreadPoolExecutor(8))

    def shutdown(req, ctx):
        call_log("Shutdown")
        done.set()
        return msgs["plugin.Empty"]()

    def health(req, ctx):
        call_log("HealthCheck")
        return x["HealthCheckResponse"](status=1)

    server.add_generic_rpc_handlers((
        grpc.method_handlers_generic_handler(
            "tfplugin%d.Provider" % version, handlers),
        grpc.method_handlers_generic_handler("plugin.GRPCController", {
            "Shutdown": grpc.unary_unary_rpc_method_handler(
                shutdown, request_deserializer=msgs["plugin.Empty"].FromString,
                response_serializer=serializer(None))}),
        grpc.method_handlers_generic_handler("grpc.health.v1.Health", {
            "Check": grpc.unary_unary_rpc_method_handler(
                health,
                request_deserializer=x["HealthCheckRequest"].FromString,
                response_serializer=serializer(None))}),
    ))
    tmp = tempfile.mkdtemp(prefix="pytest-plugin-")
    sock = os.path.join(tmp, "plugin.sock")
    cert = ""
    client_pem = os.environ.get("PLUGIN_CLIENT_CERT")
    # PYPROVIDER_NO_TLS=1 plays an old plugin that ignores AutoMTLS.
    if client_pem and not os.environ.get("PYPROVIDER_NO_TLS"):
        creds, cert = server_tls(tmp, client_pem)
        server.add_secure_port("unix:" + sock, creds)
    else:
        server.add_insecure_port("unix:" + sock)
    server.start()
    line = "1|%d|unix|%s|grpc" % (version, sock)
    if cert:
        line += "|" + cert
    sys.stdout.write(line + "\n")
    sys.stdout.flush()
    call_log("serving tfplugin%d%s" % (version, " mtls" if cert else ""))
    done.wait()
    server.stop(0.5).wait()
    for f in os.listdir(tmp):
        os.unlink(os.path.join(tmp, f))
    os.rmdir(tmp)


if __name__ == "__main__":
    main()
