#!/usr/bin/env bash
# migrate --retarget (and windows.retarget) as text edits, in place: the
# upgrade example's files and the retarget golden's input, moved from
# ltsc2019 to ltsc2022 and to ltsc2025.  Comments stay; a document whose
# RuntimeClass of the retired build nothing names any more is deleted,
# and a file left with nothing is removed; the edited files build to what
# build gives from the originals; a second run changes nothing.
#   migrate_retarget.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$(realpath "$1")
yamlcmp=$(realpath "$2")
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
no() { echo "FAIL: $*"; fail=1; }

# The upgrade example: its profile retargets ltsc2019 to ltsc2022.
cp -r "$root/examples/upgrade" up
(cd up && "$wingen" build profile.yaml >../built.yaml 2>../err) \
	|| no "example build: $(cat err)"
(cd up && "$wingen" migrate profile.yaml manifests --in-place 2>../err) \
	|| no "example migrate: $(cat err)"
[ -e up/manifests/runtimeclass.yaml ] \
	&& no "the retired pool's RuntimeClass file is still there"
grep -q "# the old pool's class" up/manifests/web.yaml \
	|| no "a comment was lost: $(cat up/manifests/web.yaml)"
grep -q "# .NET Framework 4.8 is published" up/manifests/web.yaml \
	|| no "a comment line was lost"
grep -q "windows-build: \"10.0.20348\"   # ltsc2019" up/manifests/web.yaml \
	|| no "the build value was not edited in place"
grep -q "ltsc2019" up/manifests/web.yaml \
	&& ! grep -q "# ltsc2019" up/manifests/web.yaml \
	&& no "an ltsc2019 value is left"
# the migrated files build to what build gave from the originals
sed -i '/^  retarget:/,$d' up/profile.yaml
(cd up && "$wingen" build profile.yaml >../again.yaml 2>../err) \
	|| no "build after migrate, without retarget: $(cat err)"
# (the same objects: a changed value keeps its quotes in the file)
"$yamlcmp" built.yaml again.yaml >/dev/null || no "migrated files build differently: $(diff built.yaml again.yaml | head)"
(cd up && "$wingen" migrate profile.yaml manifests --diff >../second 2>&1) \
	|| no "second migrate: $(cat second)"
grep -q '^diff' second && no "a second migrate changes something: $(cat second)"

# The golden's input, one multi-document file, with --retarget.
for to in ltsc2022 ltsc2025; do
	rm -rf g && mkdir -p g/m
	cp "$root/tests/golden/retarget-$to/input.yaml" g/m/all.yaml
	sed '/retarget/d' "$root/tests/golden/retarget-$to/profile.yaml" >g/profile.yaml
	(cd g && "$wingen" build profile.yaml -f m --retarget ltsc2019=$to \
		>../built.yaml 2>../err) || no "$to: build: $(cat err)"
	(cd g && "$wingen" migrate profile.yaml m --in-place \
		--retarget ltsc2019=$to 2>../err) || no "$to: migrate: $(cat err)"
	grep -q "^# Another class of the retired pool" g/m/all.yaml \
		|| no "$to: a comment of a kept document was lost"
	grep -q "name: windows-2019" g/m/all.yaml \
		&& no "$to: the dropped RuntimeClass is still in the file"
	grep -q "name: legacy-2019" g/m/all.yaml \
		|| no "$to: the RuntimeClass still named was removed"
	grep -q "name: api-ltsc2019" g/m/all.yaml \
		&& no "$to: fan-out's ltsc2019 copy is still there"
	(cd g && "$wingen" build profile.yaml -f m >../again.yaml 2>../err) \
		|| no "$to: build after migrate: $(cat err)"
	# build puts its RuntimeClasses first; migrate wrote them to a file
	# of their own, which -f m reads first as well
	"$yamlcmp" built.yaml again.yaml >/dev/null \
		|| no "$to: migrated file builds differently: $(diff built.yaml again.yaml | head -20)"
	(cd g && "$wingen" migrate profile.yaml m --diff --retarget \
		ltsc2019=$to >../second 2>&1) || no "$to: second: $(cat second)"
	grep -q '^diff' second && no "$to: a second migrate changes something: $(head -20 second)"
done
exit $fail
