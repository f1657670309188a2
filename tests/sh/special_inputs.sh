#!/usr/bin/env bash
# Inputs that are not regular files (SECURITY.md "Limits"):
#   - a FIFO in a profile's resources:, among -f's files, or as the
#     profile: refused at once with its kind named, where open() waited
#     forever for a writer; one in a folder -f walks is passed by, as
#     everything but files is;
#   - a device (-f /dev/zero): refused, nothing read;
#   - a stream that holds a NUL byte (/dev/zero through a pipe): refused
#     at its first read, with wingen's memory small (RSS measured), where
#     it read to the input-size limit first (2 GiB);
#   - what a descriptor names (-f /dev/stdin, bash's <(...)) is read as
#     the stream it is.
#   special_inputs.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=lib/suite.sh
. "$root/tests/sh/lib/suite.sh"
suite_scratch || exit 1
unset WINGEN_PROFILE WINGEN_LOG WINGEN_LIMITS

cat >pod.yaml <<'Y'
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers:
  - {name: web, image: mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022}
Y
mkfifo pipe.yaml
mkdir tree && cp pod.yaml tree/a.yaml && mkfifo tree/b.yaml
cat >profile.yaml <<'Y'
apiVersion: wingen.dev/v1alpha1
kind: Profile
metadata: {name: p}
windows:
  builds: [{release: ltsc2022}]
resources: [pod.yaml, pipe.yaml]
Y

# refused CASE WHAT ARGS...: exit 1 within 10 s (no writer ever comes),
# nothing on stdout, the error naming WHAT as a FIFO
refused() {
	local case=$1 what=$2 rc
	shift 2
	timeout 10 "$wingen" "$@" >out 2>err </dev/null
	rc=$?
	[ $rc -eq 1 ] || { no "$case: exit $rc, not 1 (124: it waited for a writer)"; cat err; return; }
	[ "$1" != check ] && [ -s out ] && no "$case: something on stdout"
	# check reports on stdout, the others on stderr
	cat out err | grep -q "$what: error: is a FIFO, not a regular file" \
		|| { no "$case: no error naming $what as a FIFO"; cat err; }
}
refused "resources:" pipe.yaml build profile.yaml
refused "-f FIFO" pipe.yaml build profile.yaml -f pipe.yaml
refused "the profile" pipe.yaml build pipe.yaml -f pod.yaml
refused "check" pipe.yaml check -f pipe.yaml
# a folder's FIFO is no file: the walk passes it by, as it passes by
# anything but files, and opens nothing
timeout 10 "$wingen" fmt -f tree >out 2>err
rc=$?
{ [ $rc -eq 0 ] && grep -q "name: web" out; } || { no "-f FOLDER with a FIFO: exit $rc"; cat err; }
timeout 10 "$wingen" migrate profile.yaml tree --diff >out 2>err
rc=$?
# (migrate --diff exits as kubectl diff: 0 or 1 answered, 2 no answer)
[ $rc -le 1 ] || { no "migrate FOLDER with a FIFO: exit $rc"; cat err; }

timeout 10 "$wingen" fmt -f /dev/zero >out 2>err
rc=$?
{ [ $rc -eq 1 ] && grep -q "/dev/zero: error: is a character device" err; } \
	|| { no "-f /dev/zero: exit $rc"; cat err; }

# /dev/zero through a pipe: refused at the first NUL byte, memory small
/usr/bin/time -f '%M' -o rss timeout 20 sh -c \
	'head -c 1073741824 /dev/zero | "$1" fmt -f - >out 2>err' sh "$wingen"
rc=$?
kb=$(tail -1 rss)
[ $rc -eq 1 ] || no "a stream of NUL bytes: exit $rc, not 1"
grep -q "<stdin>: error: input holds a NUL byte at offset 0" err \
	|| { no "a stream of NUL bytes: no error naming it"; cat err; }
[ "${kb:-999999}" -lt 65536 ] || no "a stream of NUL bytes: RSS ${kb} KiB (64 MiB at most)"
echo "a 1 GiB stream of NUL bytes: refused, RSS ${kb} KiB"

# what a descriptor names is read as a stream, writer and all
"$wingen" fmt -f pod.yaml >want
"$wingen" fmt -f /dev/stdin <pod.yaml >out 2>err \
	&& cmp -s out want && [ ! -s err ] || { no "-f /dev/stdin"; cat err; }
"$wingen" fmt -f <(cat pod.yaml) >out 2>err \
	&& cmp -s out want || { no "-f <(cat pod.yaml)"; cat err; }
cat pod.yaml | "$wingen" fmt -f - >out 2>err \
	&& cmp -s out want || { no "-f - from a pipe"; cat err; }

[ $fail -eq 0 ] && echo "special_inputs: all passed"
exit $fail
