The built-in hashicorp/time provider: create, a no-change plan, an
update in place, the replacement a passed rotation time causes (the state
is edited rather than waited on), import, and upstream's validation
messages.

  $ cairn apply -auto-approve -no-color > out; echo "exit $?"
  exit 0
  $ grep -E '^Apply' out
  Apply complete! Resources: 4 added, 0 changed, 0 destroyed.
  $ cairn state show time_offset.o | grep -E 'rfc3339|day|month'
      base_rfc3339  = "2020-01-31T10:00:00Z"
      day           = 2
      month         = 3
      offset_months = 1
      rfc3339       = "2020-03-02T10:00:00Z"
  $ cairn state show time_static.s | grep -E 'hour|unix|id'
      hour    = 10
      id      = "2020-01-31T10:00:00+01:00"
      unix    = 1580461200
  $ cairn plan -detailed-exitcode -no-color > /dev/null; echo "exit $?"
  exit 0

Changing an offset updates in place with the new values in the plan.

  $ sed -i 's/offset_months = 1/offset_days = 1/' main.tf
  $ cairn apply -auto-approve -no-color | grep -E 'rfc3339|Apply complete'
        ~ rfc3339       = "2020-03-02T10:00:00Z" -> "2020-02-01T10:00:00Z"
  Apply complete! Resources: 0 added, 1 changed, 0 destroyed.

A rotation time in the past: the refresh drops the object and the plan
creates a new one.

  $ python3 -c '
  > import json
  > s = json.load(open("terraform.tfstate"))
  > for r in s["resources"]:
  >     if r["type"] == "time_rotating":
  >         r["instances"][0]["attributes"]["rotation_rfc3339"] = "2021-01-01T00:00:00Z"
  > s["serial"] += 1
  > json.dump(s, open("terraform.tfstate", "w"))'
  $ cairn plan -no-color | grep -E '^  #|^Plan'
    # time_rotating.r has been deleted
    # time_rotating.r will be created
  Plan: 1 to add, 0 to change, 0 to destroy.
  $ cairn apply -auto-approve -no-color | grep -E 'Apply complete'
  Apply complete! Resources: 1 added, 0 changed, 0 destroyed.
  $ cairn plan -detailed-exitcode -no-color > /dev/null; echo "exit $?"
  exit 0

Import, in upstream's ID formats.

  $ cairn state rm time_static.s time_rotating.r > /dev/null
  $ cairn import -no-color time_static.s nope 2>&1 | grep -E 'Error|Original'
  Error: Import time static error
  +Original Error: parsing time "nope" as "2006-01-02T15:04:05Z07:00": cannot
  $ cairn import -no-color time_rotating.r 2020 2>&1 | grep -E 'Error|Unexpected format'
  Error: Unexpected Format of ID
  Unexpected format of ID ("2020"), expected
  $ cairn import -no-color time_static.s 2020-01-31T10:00:00+01:00 | grep -E 'Import successful'
  Import successful!
  $ cairn import -no-color time_rotating.r 2020-01-01T00:00:00Z,100,,,, | grep -E 'Import successful'
  Import successful!
  $ cairn state show time_rotating.r | grep -E 'rotation_'
      rotation_rfc3339 = "2120-01-01T00:00:00Z"
      rotation_years   = 100

Destroy waits destroy_duration and removes everything.

  $ cairn destroy -auto-approve -no-color | grep -E 'Destroy complete'
  Destroy complete! Resources: 4 destroyed.

Bad input.

  $ cp bad.tf.txt main.tf
  $ cairn plan -no-color 2>&1 | grep -vE '^ *$|Refreshing|^ *(with|on) |^ *[0-9]+:'
  Error: Missing Attribute Configuration
  At least one of these attributes must be configured:
  [rotation_minutes,rotation_hours,rotation_days,rotation_months,rotation_years,rotation_rfc3339]
  Error: Invalid RFC3339 String Value
  A string value was provided that is not valid RFC3339 string format.
  Given Value: 2020-13-01T00:00:00Z
  Error: parsing time "2020-13-01T00:00:00Z": month out of range
  Error: Invalid Attribute Value Match
  Attribute create_duration must be a number immediately followed by ms
  (milliseconds), s (seconds), m (minutes), or h (hours). For example, "30s"
  for 30 seconds., got: 1x
  Error: Missing Attribute Configuration
  At least one of these attributes must be configured:
  [offset_seconds,offset_minutes,offset_hours,offset_days,offset_months,offset_years]
