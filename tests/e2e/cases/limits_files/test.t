A function reading a file stops at its cap (1 GiB; CAIRN_TEST_FILE_CAP
lowers it in test builds) instead of growing until the kernel kills the
process: /dev/zero never ends.

  $ CAIRN_TEST_FILE_CAP=1048576 cairn plan 2>&1 | grep failed
  Call to function "file" failed: file "/dev/zero" is larger than 1048576
  $ sed -i 's/file(/filebase64(/' main.tf
  $ CAIRN_TEST_FILE_CAP=1048576 cairn plan 2>&1 | grep failed
  Call to function "filebase64" failed: file "/dev/zero" is larger than 1048576
  $ sed -i 's/filebase64(/filemd5(/' main.tf
  $ CAIRN_TEST_FILE_CAP=1048576 cairn plan 2>&1 | grep failed
  Call to function "filemd5" failed: file "/dev/zero" is larger than 1048576

show refuses a state whose instance attributes are not an object, as plan
and apply do:

  $ cat > terraform.tfstate <<'JSON'
  > {"version": 4, "terraform_version": "1.5.0", "serial": 1, "lineage": "x",
  >  "outputs": {}, "resources": [{"mode": "managed", "type": "terraform_data",
  >  "name": "d", "provider": "provider[\"terraform.io/builtin/terraform\"]",
  >  "instances": [{"schema_version": 0, "attributes": "oops"}]}]}
  > JSON
  $ cairn show; echo "exit $?"
  
  Error: Invalid resource state
  
  The state of terraform_data.d does not match the schema of terraform_data:
  the attributes must be an object
  exit 1
  $ cairn plan > /dev/null 2>&1; echo "exit $?"
  exit 1
