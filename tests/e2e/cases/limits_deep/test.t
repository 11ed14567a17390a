No recursion proportional to the input on untrusted input: operator,
splat and index chains far beyond the nesting limit (500 levels) give
"Nesting too deep" in every syntax (.tf, .tf.json, templates, tfvars)
instead of a stack overflow.  The inputs are made by gen.py at test time.

  $ for k in plus and splat index json template; do
  >   python3 $TESTDIR/gen.py $k $k
  >   (cd $k && cairn plan -no-color > out 2>&1; echo "$k exit $? $(grep -c 'Nesting too deep' out)")
  > done
  plus exit 1 1
  and exit 1 1
  splat exit 1 1
  index exit 1 1
  json exit 1 1
  template exit 1 1

validate and apply refuse them the same way:

  $ cd plus && cairn validate > out 2>&1; echo "exit $?"; grep -c 'Nesting too deep' out
  exit 1
  1
  $ cd plus && cairn apply -auto-approve > out 2>&1; echo "exit $?"; grep -c 'Nesting too deep' out
  exit 1
  1

A variables file:

  $ python3 $TESTDIR/gen.py tfvars tv && cd tv && cairn plan -var-file=big.tfvars > out 2>&1; echo "exit $?"; grep -c 'Nesting too deep' out
  exit 1
  1

A chain within the limit still works:

  $ python3 $TESTDIR/gen.py ok ok && cd ok && cairn plan | grep '+ x'
    + x = 400

A long string of escapes is decoded in linear time (it took minutes):

  $ python3 $TESTDIR/gen.py escapes esc && cd esc && timeout 60 cairn validate
  Success! The configuration is valid.
  
