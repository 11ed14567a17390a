A dependency cycle is an error naming its members.

  $ cd cycle && cairn plan
  
  Error: Cycle: terraform_data.a, terraform_data.b, terraform_data.c
  
  [1]
  $ cd cycle && cairn apply -auto-approve
  
  Error: Cycle: terraform_data.a, terraform_data.b, terraform_data.c
  
  [1]

The same apply prints the same text whatever the parallelism.

  $ cp -r fan one && cp -r fan many
  $ cd one && cairn apply -auto-approve -parallelism=1 | sed -E -f ../norm.sed > ../one.out
  $ cd many && cairn apply -auto-approve -parallelism=64 | sed -E -f ../norm.sed > ../many.out
  $ cmp one.out many.out && grep -c 'Creation complete' one.out
  19
  $ tail -5 many.out
  Apply complete! Resources: 19 added, 0 changed, 0 destroyed.
  
  Outputs:
  
  leaf_p = "r-0,r-1,r-2,r-3,r-4,r-5,r-6,r-7"
  $ cd one && cairn destroy -auto-approve -parallelism=1 | sed -E -f ../norm.sed > ../one.out
  $ cd many && cairn destroy -auto-approve -parallelism=64 | sed -E -f ../norm.sed > ../many.out
  $ cmp one.out many.out && tail -1 one.out
  Destroy complete! Resources: 19 destroyed.
  $ cairn plan -parallelism=0
  
  Error: Invalid parallelism
  
  The -parallelism value must be between 1 and 256.
  [2]
  $ cairn plan -parallelism=x
  
  Error: Failed to parse command-line flags
  
  invalid value "x" for flag -parallelism: parse error
  [2]
