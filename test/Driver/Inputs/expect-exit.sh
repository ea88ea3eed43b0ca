#!/bin/sh
# expect-exit.sh CODE COMMAND [ARGS...]: runs COMMAND and succeeds only if it
# exits with exactly CODE (a crash or a wrong code fails the test).
expected=$1
shift
"$@"
actual=$?
if [ "$actual" -ne "$expected" ]; then
  echo "expect-exit: '$*' exited with $actual, expected $expected" >&2
  exit 1
fi
exit 0
