#!/bin/sh
# run.sh ARGS...: runs cairn ARGS with CAIRN_CONFIG=cairn.ini, prints its
# exit status and then only its diagnostics (from the first "Error:" or
# "Warning:" line), with the server's port replaced by PORT.
CAIRN_CONFIG=cairn.ini cairn "$@" > out 2>&1
echo "exit $?"
sed -n '/^\(Error\|Warning\):/,$p' out | sed "s/:$(cat port)/:PORT/g"
