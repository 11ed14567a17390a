The built-in hashicorp/archive provider: data and resource archive_file.
The archives are byte for byte what upstream writes (sums from Go's own
archive/zip, archive/tar and compress/gzip: tests/tools/archive_oracle.go
on the same tree; "upstream" is the provider's acceptance-test value).

  $ mkdir -p src/b/sub && printf 'hello\n' > src/a.txt && seq 1 30000 > src/b/big.txt
  $ printf '#!/bin/sh\necho hi\n' > src/b/run.sh && head -c 3000 /dev/zero | tr '\0' x > src/b/data.bin
  $ printf 'sub\n' > src/b/sub/deep.txt && printf 'log\n' > src/skip.log && ln -s a.txt src/link-a && ln -s b src/linkdir
  $ chmod 755 src/b/run.sh && chmod 644 src/a.txt src/b/big.txt src/b/data.bin src/b/sub/deep.txt src/skip.log
  $ cairn apply -auto-approve -no-color > out.txt; echo "exit $?"
  exit 0
  $ sed -n '/^Outputs/,$p' out.txt
  Outputs:
  
  dir = [
    "20506ee5b81b0398ac66312a291d5a14675f1d34338535d9fee2a9fd2c1f6efd",
    124530,
  ]
  nosym = "f83398e7645f49f9c073f61297c597c4fcb9cb7a2ce6d2e96d13d231170b5a76"
  res = [
    "ef98b7ec2c09cf4965ce92dd5a9a813abeab921b8bb3a5f54c335691351b933f",
    true,
  ]
  tgz = "0efc85127ed4d960fd37777531bab90d10061d79441dd0ef22fd4869beb0f90b"
  upstream = [
    "P7VckxoEiUO411WN3nwuS/yOBL4zsbVWkQU9E1I5H6c=",
    "ea35f0444ea9a3d5641d8760bc2815cc",
    "019c79c4dc14dbe1edb3e467b2de6a6aad148717",
  ]
  $ cd out && sha256sum dir.zip dir.tar.gz nosym.zip res.zip && cd ..
  20506ee5b81b0398ac66312a291d5a14675f1d34338535d9fee2a9fd2c1f6efd  dir.zip
  0efc85127ed4d960fd37777531bab90d10061d79441dd0ef22fd4869beb0f90b  dir.tar.gz
  f83398e7645f49f9c073f61297c597c4fcb9cb7a2ce6d2e96d13d231170b5a76  nosym.zip
  ef98b7ec2c09cf4965ce92dd5a9a813abeab921b8bb3a5f54c335691351b933f  res.zip

Nothing changed: no changes.

  $ cairn plan -detailed-exitcode -no-color > /dev/null; echo "exit $?"
  exit 0

A new content replaces the resource, with the new archive's sums; a changed
file changes the data source's sums.

  $ cairn plan -no-color -var 'content=hello again' | grep -E 'must be replaced|forces replacement|^Plan'
    # archive_file.res must be replaced
        ~ source_content          = <<-EOT # forces replacement
  Plan: 1 to add, 0 to change, 1 to destroy.
  $ printf 'hello again\n' > new.txt
  $ cairn apply -auto-approve -no-color -var "content=$(cat new.txt)
  > " > out.txt; echo "exit $?"
  exit 0
  $ sed -n '/^res = /,/^]/p' out.txt
  res = [
    "7061bced53b503e56ad3549d0487afa104f0cfacc7b0e70c1007959920004069",
    true,
  ]
  $ printf 'hello, world\n' > src/a.txt
  $ cairn apply -auto-approve -no-color -var "content=$(cat new.txt)
  > " > out.txt; echo "exit $?"
  exit 0
  $ grep -A1 '^dir = ' out.txt
  dir = [
    "(?!20506ee5)[0-9a-f]{64}", (re)
  $ cairn plan -detailed-exitcode -no-color -var "content=$(cat new.txt)
  > " > /dev/null; echo "exit $?"
  exit 0

The resource re-archives on refresh (upstream's Read does), so its sums
follow the files; exclude_symlink_directories changes in place and
rebuilds.

  $ printf 'hello, world\n' > a.txt.ref; cmp -s src/a.txt a.txt.ref && echo changed
  changed
  $ cairn state show archive_file.tres | grep -E ' output_sha256' | grep -c "$(sha256sum < out/tres.tar.gz | cut -c1-64)"
  1
  $ printf 'more\n' >> src/b/sub/deep.txt
  $ cairn plan -no-color -var "content=$(cat new.txt)
  > " | grep -E '^Plan|will be|must be|No changes|Changes to Outputs'
  Changes to Outputs:
  $ cairn apply -refresh-only -auto-approve -no-color -var "content=$(cat new.txt)
  > " > /dev/null; echo "exit $?"
  exit 0
  $ cairn state show archive_file.tres | grep -E ' output_sha256' | grep -c "$(sha256sum < out/tres.tar.gz | cut -c1-64)"
  1
  $ cairn plan -no-color -var nosym=true -var "content=$(cat new.txt)
  > " | grep -E 'update in-place|exclude_symlink_directories|^Plan'
    ~ update in-place
        ~ exclude_symlink_directories = false -> true
  Plan: 0 to add, 1 to change, 0 to destroy.
  $ tar tzf out/tres.tar.gz | wc -l
  8
  $ cairn apply -auto-approve -no-color -var nosym=true -var "content=$(cat new.txt)
  > " | grep -E '^Apply'
  Apply complete! Resources: 0 added, 1 changed, 0 destroyed.
  $ tar tzvf out/tres.tar.gz
  -rw-r--r-- 0/0              13 1970-01-01 00:00 a.txt
  -rw-r--r-- 0/0          168894 1970-01-01 00:00 b/big.txt
  -rw-r--r-- 0/0              18 1970-01-01 00:00 b/run.sh
  -rw-r--r-- 0/0               9 1970-01-01 00:00 b/sub/deep.txt
  -rw-r--r-- 0/0              13 1970-01-01 00:00 link-a
  $ cairn plan -detailed-exitcode -no-color -var nosym=true -var "content=$(cat new.txt)
  > " > /dev/null; echo "exit $?"
  exit 0

Destroy forgets the resources and, as upstream, leaves their files.

  $ cairn destroy -auto-approve -no-color -var "content=$(cat new.txt)
  > " | grep -E '^Destroy complete'
  Destroy complete! Resources: 2 destroyed.
  $ ls out/res.zip
  out/res.zip

Bad input: upstream's validators (with the attribute at fault) ...

  $ cp invalid.tf.txt main.tf
  $ cairn validate -no-color 2>&1 | grep -E '^Error|cannot be specified|must be configured|on main.tf'
  Error: Missing Attribute Configuration
    on main.tf line 1, in data "archive_file" "none":
  At least one of these attributes must be configured:
  Error: Invalid Attribute Combination
    on main.tf line 8, in data "archive_file" "both":
  Attribute "source_dir" cannot be specified when "source_file" is specified
  Error: Invalid Attribute Combination
    on main.tf line 9, in data "archive_file" "both":
  Attribute "source_file" cannot be specified when "source_dir" is specified
  $ cp bad.tf.txt main.tf
  $ cairn plan -no-color 2>&1 | grep -E '^Error|on main.tf'
  Error: Archive creation error
    on main.tf line 1, in data "archive_file" "type":
  Error: Archive creation error
    on main.tf line 7, in data "archive_file" "missing":
  Error: Archive creation error
    on main.tf line 13, in data "archive_file" "mode":
  Error: Archive creation error
    on main.tf line 20, in data "archive_file" "pattern":
  Error: Archive creation error
    on main.tf line 27, in data "archive_file" "empty":
  $ cairn plan -no-color 2>&1 | sed -n '/error creating archive/{N;p;}'
  error creating archive: archive type not supported: rar
  
  error creating archive: error archiving file: could not archive missing file:
  src/nope.txt
  error creating archive: error archiving file: error parsing output_file_mode
  value: rw-r--r--
  error creating archive: error archiving directory: error checking excludes
  matches: syntax error in pattern
  error creating archive: error archiving directory: archive has not been
  created as it would be empty

The resource finds a bad type only when it is created, as upstream.

  $ cp badres.tf.txt main.tf
  $ cairn plan -no-color | grep -E '^Plan'
  Plan: 1 to add, 0 to change, 0 to destroy.
  $ cairn apply -auto-approve -no-color 2>&1 | grep -E '^Error|error creating|on main.tf'
  Error: Archive creation error
    on main.tf line 1, in resource "archive_file" "bad":
  error creating archive: archive type not supported: rar
  $ cairn apply -auto-approve -no-color > /dev/null 2>&1; echo "exit $?"
  exit 1
