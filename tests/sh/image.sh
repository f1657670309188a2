#!/usr/bin/env bash
# deploy/image/build.sh: the container image, built from the test's own
# wingen, as an OCI image archive.
#  - two builds give the same bytes (the same digest);
#  - umoci reads the layout and unpacks it (digests, media types);
#  - the image holds wingen, exactly the libraries ldd lists for it and
#    the program interpreter, /etc/passwd and /etc/group, nothing else;
#    USER is numeric and not root, with its passwd entry; the entrypoint
#    is wingen, the command fn;
#  - in the unpacked root, as the image's user (chroot), wingen fn turns a
#    ResourceList into the same bytes as the wingen that was packed, and
#    version says the libraries it runs with are those it was built with;
#  - with podman, where a container runs here: the archive loads, and the
#    image runs as kpt and kustomize run a function (--network none --user
#    nobody, stdin); then kpt fn eval --image and kubectl kustomize's
#    container function with it, when those clients are installed.
# Needs root (chroot), tar, jq, umoci; says SKIP loudly for what it cannot
# run here, and why.
#   image.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$root/deploy/image/build.sh
tmp=$(mktemp -d)
tag=localhost/wingen-test:$$
cleanup() {
	command -v podman >/dev/null && podman rmi -f "$tag" >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
skip() { echo "SKIP: $*"; exit 77; }

[ "$(id -u)" = 0 ] || skip "not root: the test unpacks the image and runs it with chroot"
for t in tar jq umoci ldd strip sha256sum; do
	command -v "$t" >/dev/null || skip "'$t' is not installed (Debian: tar jq umoci libc-bin binutils coreutils)"
done
ldd "$wingen" | grep -qE 'lib(asan|ubsan|tsan)' \
	&& skip "$wingen is built with a sanitizer: its runtime wants /proc, which the bare image has not"

# ---- the build, twice ----------------------------------------------------------
export SOURCE_DATE_EPOCH=1700000000
"$build" 2>/dev/null; [ $? = 2 ] || no "build.sh without OUT is not a usage error"
"$build" "$tmp/a.tar" --wingen "$wingen" --tag "$tag" >"$tmp/build.out" \
	|| { no "build.sh failed: $(cat "$tmp/build.out")"; exit 1; }
sleep 1	# a clock that leaks into the archive would show
"$build" "$tmp/b.tar" --wingen "$wingen" --tag "$tag" >/dev/null \
	|| { no "build.sh failed the second time"; exit 1; }
cmp -s "$tmp/a.tar" "$tmp/b.tar" \
	|| no "two builds of the same binary differ: the image is not reproducible"
echo "image: $(cat "$tmp/build.out")"

# ---- the layout ---------------------------------------------------------------
mkdir "$tmp/layout"
tar -xf "$tmp/a.tar" -C "$tmp/layout" || { no "the archive does not unpack"; exit 1; }
(cd "$tmp" && umoci unpack --image "layout:$tag" bundle >"$tmp/umoci.out" 2>&1) \
	|| { no "umoci cannot unpack it: $(tail -3 "$tmp/umoci.out")"; exit 1; }
rootfs=$tmp/bundle/rootfs
index=$tmp/layout/index.json
jq -e --arg t "$tag" '.manifests | length == 1
	and .[0].annotations["org.opencontainers.image.ref.name"] == $t' "$index" \
	>/dev/null || no "index.json is not one manifest named $tag"
manifest=$tmp/layout/blobs/$(jq -r '.manifests[0].digest | sub(":"; "/")' "$index")
config=$tmp/layout/blobs/$(jq -r '.config.digest | sub(":"; "/")' "$manifest")
jq -e '.config.User | test("^[1-9][0-9]*:[0-9]+$")' "$config" >/dev/null \
	|| no "USER is not a numeric user other than root: $(jq -c .config.User "$config")"
uid=$(jq -r '.config.User | split(":")[0]' "$config")
grep -q "^[^:]*:x:$uid:" "$rootfs/etc/passwd" \
	|| no "/etc/passwd has no entry for the user $uid"
grep -q '^nobody:x:65534:' "$rootfs/etc/passwd" \
	|| no "/etc/passwd has no nobody (kpt and kustomize run functions --user nobody)"
[ "$(jq -c '[.config.Entrypoint, .config.Cmd]' "$config")" = '[["/usr/local/bin/wingen"],["fn"]]' ] \
	|| no "entrypoint and command are not wingen fn: $(jq -c '[.config.Entrypoint, .config.Cmd]' "$config")"
jq -e '.process.user.uid != 0' "$tmp/bundle/config.json" >/dev/null \
	|| no "umoci's runtime config runs as root"

# ---- what is in it ----------------------------------------------------------------
(cd "$rootfs" && find . -type f -o -type l | sed 's|^\./||' | sort) >"$tmp/have"
{
	echo etc/group; echo etc/passwd; echo usr/local/bin/wingen
	ldd "$wingen" | sed -nE 's/^[[:space:]]*([^ ]+ => )?\/([^ ]+) \(0x[0-9a-f]+\)$/\2/p'
} | sort -u >"$tmp/want"
diff -u "$tmp/want" "$tmp/have" >"$tmp/contents.diff" \
	|| no "the image holds other than wingen, its libraries (ldd), passwd and group: $(cat "$tmp/contents.diff")"
[ "$(find "$rootfs" -type l | wc -l)" = 0 ] || no "the image holds symbolic links"
cp "$wingen" "$tmp/stripped" && strip --strip-all "$tmp/stripped"
cmp -s "$tmp/stripped" "$rootfs/usr/local/bin/wingen" \
	|| no "the image's wingen is not the given binary, stripped"
echo "image: $(wc -l <"$tmp/have") files, $(du -sk "$rootfs" | cut -f1) KiB unpacked," \
     "archive $(stat -c %s "$tmp/a.tar") bytes"

# ---- run it: chroot, as the image's user --------------------------------------------
rl=$root/tests/golden/krm-configmap/stdin.yaml
"$wingen" fn <"$rl" >"$tmp/host.out" 2>"$tmp/host.err"
echo $? >"$tmp/host.rc"
chroot --userspec="$(jq -r .config.User "$config")" "$rootfs" \
	/usr/local/bin/wingen fn <"$rl" >"$tmp/chroot.out" 2>"$tmp/chroot.err"
[ "$?" = "$(cat "$tmp/host.rc")" ] || no "wingen fn in the image exits otherwise than on the host"
cmp -s "$tmp/host.out" "$tmp/chroot.out" \
	|| no "wingen fn in the image writes other than on the host: $(diff "$tmp/host.out" "$tmp/chroot.out" | head -5; head -3 "$tmp/chroot.err")"
grep -q '^kind: ResourceList' "$tmp/chroot.out" || no "wingen fn in the image wrote no ResourceList"
chroot --userspec=65534:65534 "$rootfs" /usr/local/bin/wingen version >"$tmp/version" \
	|| no "wingen version in the image failed"
awk '/built with/ && $4 != $6 { print }' "$tmp/version" | grep . \
	&& no "a library in the image is not the one wingen was built with"

# wingen serve in the image: libmicrohttpd and GnuTLS as ldd put them,
# no /dev, no /etc/ssl; HTTPS answers /readyz.
if "$wingen" help serve >/dev/null 2>&1; then
	if command -v openssl >/dev/null && command -v curl >/dev/null; then
		mkdir "$rootfs/certs"
		openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost \
			-keyout "$rootfs/certs/key.pem" -out "$rootfs/certs/cert.pem" 2>/dev/null
		chmod 0644 "$rootfs"/certs/*
		port=$((20000 + $$ % 20000))
		chroot --userspec="$(jq -r .config.User "$config")" "$rootfs" \
			/usr/local/bin/wingen serve --port "$port" \
			--tls-cert-file /certs/cert.pem \
			--tls-private-key-file /certs/key.pem >"$tmp/serve.log" 2>&1 &
		serve=$!
		ready=
		for _ in $(seq 100); do
			ready=$(curl -sk "https://127.0.0.1:$port/readyz" 2>/dev/null) && break
			sleep 0.1
		done
		kill "$serve" 2>/dev/null; wait "$serve" 2>/dev/null
		[ "$ready" = ok ] || no "wingen serve in the image does not answer /readyz over HTTPS: $(tail -3 "$tmp/serve.log")"
		rm -rf "$rootfs/certs"
	else
		echo "SKIP (wingen serve in the image): no openssl or curl"
	fi
fi

# ---- podman ---------------------------------------------------------------------
if ! command -v podman >/dev/null; then
	echo "SKIP (podman): podman is not installed (Debian: apt-get install podman)"
	exit $fail
fi
# The archive is a docker-archive too (manifest.json, for docker load):
# without the OCI files, podman reads it as one.
mkdir "$tmp/docker" && cp -r "$tmp/layout/blobs" "$tmp/layout/manifest.json" "$tmp/docker/"
tar -cf "$tmp/docker.tar" -C "$tmp/docker" manifest.json blobs
podman load -i "$tmp/docker.tar" >"$tmp/load.out" 2>&1 \
	|| no "podman load of the archive as a docker-archive: $(tail -3 "$tmp/load.out")"
podman rmi -f "$tag" >/dev/null 2>&1
podman load -i "$tmp/a.tar" >"$tmp/load.out" 2>&1 \
	|| { no "podman load: $(tail -3 "$tmp/load.out")"; exit $fail; }
grep -q "Loaded image.*$tag" "$tmp/load.out" \
	|| no "podman load did not name the image $tag: $(tail -2 "$tmp/load.out")"
# As kpt and kustomize run a container function.
run() { podman run --rm -i --network none --user nobody \
	--security-opt=no-new-privileges "$tag" "$@"; }
if ! run version >"$tmp/podman.version" 2>"$tmp/podman.err"; then
	# A machine that does not give root CAP_SYS_RESOURCE cannot raise
	# the container's rlimits, and crun does not run on hybrid cgroups:
	# runc with the host's limits as the defaults does.
	why=$(tail -1 "$tmp/podman.err")
	if command -v runc >/dev/null; then
		cat >"$tmp/containers.conf" <<EOF
[containers]
default_ulimits = ["nofile=1024:1024", "nproc=1024:1024"]
[engine]
runtime = "runc"
EOF
		export CONTAINERS_CONF=$tmp/containers.conf
	fi
	if run version >"$tmp/podman.version" 2>"$tmp/podman.err"; then
		echo "note: podman runs a container here only with runc and lower ulimits ($why)"
	else
		echo "SKIP (podman run): no container runs here: $why; $(tail -1 "$tmp/podman.err")"
		exit $fail
	fi
fi
cmp -s "$tmp/version" "$tmp/podman.version" \
	|| no "wingen version under podman differs from the chroot's"
run <"$rl" >"$tmp/podman.out" 2>"$tmp/podman.err"
[ "$?" = "$(cat "$tmp/host.rc")" ] || no "the image under podman exits otherwise than wingen fn"
cmp -s "$tmp/host.out" "$tmp/podman.out" \
	|| no "the image under podman writes other than wingen fn: $(head -3 "$tmp/podman.err")"
echo "image: runs under podman as kpt runs functions (--network none --user nobody)"

# kpt fn eval --image, through podman (KPT_FN_RUNTIME).
if command -v kpt >/dev/null; then
	cp -r "$root/examples/kpt/pkg" "$tmp/pkg"
	KPT_FN_RUNTIME=podman kpt fn eval "$tmp/pkg" --image "$tag" \
		--fn-config "$root/examples/kpt/profile.yaml" >"$tmp/kpt.out" 2>&1 \
		|| no "kpt fn eval --image: $(tail -5 "$tmp/kpt.out")"
	grep -q 'runtimeClassName: windows-ltsc2022' "$tmp/pkg/iis.yaml" \
		|| no "kpt fn eval --image did not give the IIS Deployment its RuntimeClass"
	grep -q 'kubernetes.io/os: linux' "$tmp/pkg/api.yaml" \
		|| no "kpt fn eval --image did not pin the API to Linux"
else
	echo "SKIP (kpt fn eval --image): no kpt"
fi
# kubectl kustomize's container function: kustomize runs "docker run";
# podman answers to that name here.
if command -v kubectl >/dev/null; then
	mkdir -p "$tmp/shim" "$tmp/kz"
	printf '#!/bin/sh\nexec podman "$@"\n' >"$tmp/shim/docker"
	chmod +x "$tmp/shim/docker"
	cp "$root/examples/kpt/pkg/iis.yaml" "$root/examples/kpt/pkg/api.yaml" "$tmp/kz/"
	{
		echo "apiVersion: wingen.dev/v1alpha1"
		echo "kind: Profile"
		echo "metadata:"
		echo "  name: shop"
		echo "  annotations:"
		echo "    config.kubernetes.io/function: |"
		echo "      container:"
		echo "        image: $tag"
		sed -n '/^windows:/,$p' "$root/examples/kpt/profile.yaml"
	} >"$tmp/kz/wingen.yaml"
	printf 'resources: [iis.yaml, api.yaml]\ntransformers: [wingen.yaml]\n' \
		>"$tmp/kz/kustomization.yaml"
	PATH=$tmp/shim:$PATH kubectl kustomize --enable-alpha-plugins "$tmp/kz" \
		>"$tmp/kz.out" 2>&1 || no "kubectl kustomize with the container function: $(tail -5 "$tmp/kz.out")"
	grep -q 'runtimeClassName: windows-ltsc2022' "$tmp/kz.out" \
		&& grep -q '^kind: RuntimeClass' "$tmp/kz.out" \
		|| no "kubectl kustomize's container function did not run wingen: $(head -5 "$tmp/kz.out")"
else
	echo "SKIP (kubectl kustomize container function): no kubectl"
fi

[ "$fail" = 0 ] && echo "image: all checks pass"
exit $fail
