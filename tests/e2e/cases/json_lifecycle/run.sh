# run.sh SYNTAX: the same two steps from SYNTAX/v1 and SYNTAX/v2 (hcl or
# json) in a directory of their own; prints what they do, with generated
# ids masked so that the two syntaxes can be compared line by line.
mkdir "run-$1" && cd "run-$1"
cp ../"$1"/v1/* .
cairn apply -auto-approve > /dev/null || exit 1
rm -f main.tf main.tf.json && cp ../"$1"/v2/* .
{
  cairn plan -parallelism=1 -var v=2 -out=p.bin
  cairn show -json p.bin | python3 ../q.py
  cairn apply -parallelism=1 p.bin | grep -v '^$'
  cairn state list
  cairn plan -var v=2 -detailed-exitcode > /dev/null; echo "exit $?"
} 2>&1 | sed -E 's/[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}/UUID/g;
  s/id=[0-9]{6,}/id=NUM/g; s/after [0-9]+s/after Ns/'
