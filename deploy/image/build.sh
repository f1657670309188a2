#!/usr/bin/env bash
# Builds wingen's container image, from scratch and with no registry, as an
# OCI image archive (an OCI image layout in a tar, which is also what
# docker load reads):
#   deploy/image/build.sh OUT.tar [--wingen BINARY] [--tag NAME:TAG]
#
# The image holds wingen at /usr/local/bin/wingen, exactly the shared
# libraries ldd lists for it (whatever the binary links: libyaml,
# libcyaml, PCRE2, zlib, libc, and libmicrohttpd, GnuTLS, yajl and theirs when
# it links them) at the paths ldd names, the program interpreter,
# /etc/passwd and /etc/group with root, nobody (the user kpt and
# kustomize run functions as) and wingen (65532, the image's USER), and
# nothing else: no shell, no package manager.  Entrypoint
# /usr/local/bin/wingen, command "fn" (a KRM function: a ResourceList on
# stdin), user 65532:65532.
#
# Reproducible: every file's time is SOURCE_DATE_EPOCH (default: the
# commit time of the sources' HEAD, else 0), owners are 0:0, tar entries
# are sorted, the layer is not compressed (no compressor version in the
# digest), and the JSON is written in a fixed order; two builds of the
# same binary give the same bytes, so the same digest.
#
# Without --wingen the binary is built here from the sources (Release,
# stripped, source paths mapped away) in build-image/ of the checkout.
# Needs: tar, sha256sum, jq, ldd (libc-bin), strip (binutils), and cmake
# and a compiler without --wingen.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
usage() {
	echo "usage: deploy/image/build.sh OUT.tar [--wingen BINARY] [--tag NAME:TAG]" >&2
	exit 2
}
out= binary= tag=
while [ $# -gt 0 ]; do
	case $1 in
	--wingen) [ $# -ge 2 ] || usage; binary=$2; shift 2 ;;
	--tag) [ $# -ge 2 ] || usage; tag=$2; shift 2 ;;
	-h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	-*) echo "build.sh: unknown option '$1'" >&2; usage ;;
	*) [ -z "$out" ] || usage; out=$1; shift ;;
	esac
done
[ -n "$out" ] || usage
for tool in tar sha256sum jq ldd strip; do
	command -v "$tool" >/dev/null 2>&1 || {
		echo "build.sh: '$tool' is needed (Debian: apt-get install tar" \
		     "coreutils jq libc-bin binutils)" >&2
		exit 1
	}
done

if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
	SOURCE_DATE_EPOCH=$(git -C "$src" log -1 --format=%ct 2>/dev/null || echo 0)
fi
export SOURCE_DATE_EPOCH
created=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# ---- the binary ------------------------------------------------------------
if [ -z "$binary" ]; then
	cmake -S "$src" -B "$src/build-image" -DCMAKE_BUILD_TYPE=Release \
		-DBUILD_TESTING=OFF \
		-DCMAKE_C_FLAGS="-ffile-prefix-map=$src=." >/dev/null
	cmake --build "$src/build-image" --target wingen -j"$(nproc)" >/dev/null
	binary=$src/build-image/wingen
fi
[ -x "$binary" ] || { echo "build.sh: '$binary' is not an executable" >&2; exit 1; }
version=$("$binary" version -o json | jq -r .version)
commit=$("$binary" version -o json | jq -r .gitCommit)
[ -n "$tag" ] || tag=wingen:$version
case $tag in *:*) ;; *) tag=$tag:latest ;; esac

# ---- the root file system ---------------------------------------------------
root=$work/rootfs
mkdir -p "$root/usr/local/bin" "$root/etc"
install -m 0755 "$binary" "$root/usr/local/bin/wingen"
strip --strip-all "$root/usr/local/bin/wingen"
# Every library ldd lists ("name => /path (addr)") and the program
# interpreter ("/path (addr)"), the files themselves at the paths ldd
# names; a static binary lists none.
ldd "$binary" >"$work/ldd" 2>&1 || true
if grep -qE 'not found' "$work/ldd"; then
	echo "build.sh: ldd cannot find a library of $binary:" >&2
	cat "$work/ldd" >&2
	exit 1
fi
sed -nE 's/^[[:space:]]*([^ ]+ => )?(\/[^ ]+) \(0x[0-9a-f]+\)$/\2/p' "$work/ldd" \
	| sort -u >"$work/libs"
while read -r lib; do
	mode=0644
	if readelf -l "$binary" 2>/dev/null | grep -qF "interpreter: $lib]"; then
		mode=0755	# the kernel executes the interpreter
	fi
	install -D -m "$mode" "$(readlink -f "$lib")" "$root$lib"
done <"$work/libs"
cat >"$root/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/sbin/nologin
nobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin
wingen:x:65532:65532:wingen:/nonexistent:/sbin/nologin
EOF
cat >"$root/etc/group" <<'EOF'
root:x:0:
nogroup:x:65534:
wingen:x:65532:
EOF
chmod 0644 "$root/etc/passwd" "$root/etc/group"
find "$root" -type d -exec chmod 0755 {} +

# tar that gives the same bytes for the same files.
repro_tar() {	# repro_tar OUT DIR
	(cd "$2" && find . -mindepth 1 -printf '%P\n' | LC_ALL=C sort \
		| tar --create --file="$1" --no-recursion --files-from=- \
			--format=posix \
			--pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime \
			--mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 \
			--numeric-owner)
}

# ---- the OCI image layout ---------------------------------------------------
layout=$work/layout
mkdir -p "$layout/blobs/sha256"
blob() {	# blob FILE: moves FILE into the blobs, prints "digest size"
	local d s
	d=$(sha256sum "$1" | cut -d' ' -f1)
	s=$(stat -c %s "$1")
	mv "$1" "$layout/blobs/sha256/$d"
	echo "$d $s"
}
repro_tar "$work/layer.tar" "$root"
read -r layer_digest layer_size < <(blob "$work/layer.tar")

case $(uname -m) in
x86_64) arch=amd64 ;;
aarch64) arch=arm64 ;;
*) arch=$(uname -m) ;;
esac
jq -cn --arg created "$created" --arg arch "$arch" --arg layer "sha256:$layer_digest" \
	--arg version "$version" --arg commit "$commit" '{
	created: $created, architecture: $arch, os: "linux",
	config: {
		User: "65532:65532",
		Env: ["PATH=/usr/local/bin"],
		Entrypoint: ["/usr/local/bin/wingen"],
		Cmd: ["fn"],
		WorkingDir: "/",
		Labels: {
			"org.opencontainers.image.title": "wingen",
			"org.opencontainers.image.description": "Kubernetes manifests for clusters that mix Linux and Windows nodes; a KRM function by default",
			"org.opencontainers.image.version": $version,
			"org.opencontainers.image.revision": $commit
		}
	},
	rootfs: {type: "layers", diff_ids: [$layer]},
	history: [{created: $created, created_by: "deploy/image/build.sh"}]
}' >"$work/config.json"
read -r config_digest config_size < <(blob "$work/config.json")

jq -cn --arg config "sha256:$config_digest" --argjson config_size "$config_size" \
	--arg layer "sha256:$layer_digest" --argjson layer_size "$layer_size" \
	--arg created "$created" '{
	schemaVersion: 2,
	mediaType: "application/vnd.oci.image.manifest.v1+json",
	config: {mediaType: "application/vnd.oci.image.config.v1+json",
		 digest: $config, size: $config_size},
	layers: [{mediaType: "application/vnd.oci.image.layer.v1.tar",
		  digest: $layer, size: $layer_size}],
	annotations: {"org.opencontainers.image.created": $created}
}' >"$work/manifest.json"
read -r manifest_digest manifest_size < <(blob "$work/manifest.json")

jq -cn --arg manifest "sha256:$manifest_digest" \
	--argjson manifest_size "$manifest_size" --arg tag "$tag" '{
	schemaVersion: 2,
	mediaType: "application/vnd.oci.image.index.v1+json",
	manifests: [{mediaType: "application/vnd.oci.image.manifest.v1+json",
		     digest: $manifest, size: $manifest_size,
		     annotations: {"org.opencontainers.image.ref.name": $tag,
				   "io.containerd.image.name": $tag}}]
}' >"$layout/index.json"
echo '{"imageLayoutVersion":"1.0.0"}' >"$layout/oci-layout"
# docker load of any version reads the same archive through this file.
jq -cn --arg config "blobs/sha256/$config_digest" \
	--arg layer "blobs/sha256/$layer_digest" --arg tag "$tag" \
	'[{Config: $config, RepoTags: [$tag], Layers: [$layer]}]' \
	>"$layout/manifest.json"
find "$layout" -type f -exec chmod 0644 {} +
find "$layout" -type d -exec chmod 0755 {} +

mkdir -p "$(dirname "$out")"
repro_tar "$work/image.tar" "$layout"
mv "$work/image.tar" "$out"
echo "build.sh: $out: $tag, sha256:$manifest_digest (layer $layer_size bytes:" \
     "wingen and the $(wc -l <"$work/libs") files ldd names)"
