The time provider's functions (hashicorp/time 0.14): rfc3339_parse,
duration_parse and unix_timestamp_parse, with upstream's values and
argument errors.  They are listed by `providers schema -json`, not by
`metadata functions -json` (Terraform lists only built-ins there).

  $ cairn apply -auto-approve -no-color > out; echo "exit $?"
  exit 0
  $ cairn output -json | python3 -c 'import json,sys; [print(k, json.dumps(v["value"], sort_keys=True)) for k, v in sorted(json.load(sys.stdin).items())]'
  dur {"hours": 1.03430555555556, "microseconds": 3723500000, "milliseconds": 3723500, "minutes": 62.0583333333333, "nanoseconds": 3723500000000, "seconds": 3723.5}
  neg -90
  offset {"day": 19, "hour": 16, "iso_week": 51, "iso_year": 1996, "minute": 39, "month": 12, "month_name": "December", "second": 57, "unix": 851042397, "weekday": 4, "weekday_name": "Thursday", "year": 1996, "year_day": 354}
  unix {"day": 25, "hour": 23, "iso_week": 30, "iso_year": 2023, "minute": 43, "month": 7, "month_name": "July", "rfc3339": "2023-07-25T23:43:16Z", "second": 16, "weekday": 2, "weekday_name": "Tuesday", "year": 2023, "year_day": 206}
  utc {"day": 25, "hour": 23, "iso_week": 30, "iso_year": 2023, "minute": 43, "month": 7, "month_name": "July", "second": 16, "unix": 1690328596, "weekday": 2, "weekday_name": "Tuesday", "year": 2023, "year_day": 206}
  week 1
  $ cairn plan -no-color -detailed-exitcode > out; echo "exit $?"
  exit 0
  $ cairn providers schema -json | python3 -c '
  > import json,sys
  > f = json.load(sys.stdin)["provider_schemas"]["registry.terraform.io/hashicorp/time"]["functions"]
  > print(sorted(f))
  > print(json.dumps(f["duration_parse"]["parameters"], sort_keys=True))
  > print(json.dumps(f["duration_parse"]["return_type"]))'
  ['duration_parse', 'rfc3339_parse', 'unix_timestamp_parse']
  [{"description": "Go time package duration string to parse", "name": "duration", "type": "string"}]
  ["object", {"hours": "number", "microseconds": "number", "milliseconds": "number", "minutes": "number", "nanoseconds": "number", "seconds": "number"}]

Bad input: upstream's argument errors, and the core's null check.

  $ cp bad.tf.txt bad.tf
  $ cairn plan -no-color; echo "exit $?"
  
  Error: Invalid function argument
  
    on bad.tf line 1, in output "ts":
     1: output "ts" { value = provider::time::rfc3339_parse("abcdef") }
  
  Invalid value for "timestamp" parameter: Error parsing RFC3339 timestamp:
  "abcdef" is not a valid RFC3339 timestamp.
  
  Error: Invalid function argument
  
    on bad.tf line 2, in output "baddur":
     2: output "baddur" { value = provider::time::duration_parse("1d") }
  
  Invalid value for "duration" parameter: Error parsing duration string: "1d"
  is not a valid duration string.
  
  Error: Invalid function argument
  
    on bad.tf line 3, in output "frac":
     3: output "frac" { value = provider::time::unix_timestamp_parse(1.5) }
  
  Invalid value for "unix_timestamp" parameter: Value 1.5 is not an integer..
  
  Error: Invalid function argument
  
    on bad.tf line 4, in output "null":
     4: output "null" { value = provider::time::duration_parse(null) }
  
  Invalid value for "duration" parameter: argument must not be null.
  exit 1
