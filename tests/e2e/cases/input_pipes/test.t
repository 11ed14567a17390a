Every input is read to end of file, not fstat's size: a pipe, /dev/stdin
or a process substitution reports 0 bytes.

Variables files:

  $ echo 'n = 42' | cairn plan -var-file=/dev/stdin | grep '+ n'
    + n = 42
  $ bash -c 'cairn plan -var-file=<(echo "n = 43")' | grep '+ n'
    + n = 43

A configuration file that is a FIFO:

  $ mkfifo pipe.tf
  $ printf 'output "p" {\n  value = "from a pipe"\n}\n' > pipe.tf 2>/dev/null & cairn plan | grep '+ p'
    + p = "from a pipe"
  $ rm pipe.tf

Templates (the path comes from a variable: the validate walk before the
plan evaluates outputs with variables unknown, so it does not read the
pipe that the plan reads, as in Terraform):

  $ printf 'variable "tpl" {}\noutput "t" { value = templatefile(var.tpl, {}) }\n' > t.tf
  $ echo 'hello ${1+1}' | cairn plan -var tpl=/dev/stdin | grep hello
          hello 2
  $ rm t.tf

The host configuration:

  $ bash -c "CAIRN_CONFIG=<(printf '[defaults]\nparallelism = 0\n') cairn plan" 2>&1 | grep parallelism
  /dev/fd/63:2: the value of "parallelism" must be a whole number from 1 to

Saved plans and states:

  $ cairn apply -auto-approve -var n=5 > /dev/null
  $ cat terraform.tfstate | cairn output -state=/dev/stdin
  n = "5"
  $ cairn plan -var n=6 -out=p.bin > /dev/null
  $ cat p.bin | cairn apply /dev/stdin | grep '^n ='
  n = "6"
