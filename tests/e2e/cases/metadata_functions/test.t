`cairn metadata functions -json`: Terraform's function signature document
(format_version 1.0), one JSON line: every built-in under its name and
under core::, list and map only as core::list / core::map, no provider
functions, try and can with Terraform's fixed signatures.

  $ cairn metadata functions -json > out.json; echo "exit $?"
  exit 0
  $ wc -l < out.json
  1
  $ python3 -c '
  > import json
  > d = json.load(open("out.json"))
  > s = d["function_signatures"]
  > print(d["format_version"], list(d))
  > print(list(s) == sorted(s))
  > for k in ["abs", "core::abs", "join", "can", "try", "format", "core::list"]:
  >     print(k, json.dumps(s[k], sort_keys=True))
  > print([k for k in ("list", "map", "provider::terraform::encode_expr") if k in s])
  > print(all(("core::" + k) in s for k in s if not k.startswith("core::")))'
  1.0 ['format_version', 'function_signatures']
  True
  abs {"parameters": [{"name": "num", "type": "number"}], "return_type": "number"}
  core::abs {"parameters": [{"name": "num", "type": "number"}], "return_type": "number"}
  join {"parameters": [{"name": "separator", "type": "string"}], "return_type": "string", "variadic_parameter": {"name": "lists", "type": ["list", "string"]}}
  can {"parameters": [{"name": "expression", "type": "dynamic"}], "return_type": "bool"}
  try {"return_type": "dynamic", "variadic_parameter": {"name": "expressions", "type": "dynamic"}}
  format {"parameters": [{"name": "format", "type": "string"}], "return_type": "string", "variadic_parameter": {"is_nullable": true, "name": "args", "type": "dynamic"}}
  core::list {"return_type": "dynamic", "variadic_parameter": {"is_nullable": true, "name": "vals", "type": "dynamic"}}
  []
  True

Without -json it refuses with Terraform's message (a usage error: 2).

  $ cairn metadata functions
  The `cairn metadata functions` command requires the `-json` flag.
  
  Usage: cairn [global options] metadata functions -json
  
    Prints out a json representation of the available function signatures.
  [2]
