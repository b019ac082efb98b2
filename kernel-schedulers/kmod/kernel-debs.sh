#!/bin/bash
# Download Debian's 6.12 kernel packages into a cache (by version) and unpack them there,
# without installing anything: the machine's own kernel is not this one.
#
#   kernel-debs.sh CACHE_DIR headers   linux-headers(+common, kbuild) -> CACHE_DIR/root
#   kernel-debs.sh CACHE_DIR source    net/mptcp/ and checkpatch.pl of linux-source -> CACHE_DIR/src
#   kernel-debs.sh CACHE_DIR image     linux-image-...-unsigned -> CACHE_DIR/image
#
# Each part is done once (a .done stamp); the .debs stay in CACHE_DIR/debs.
set -euo pipefail

KVER=6.12.117+deb12-amd64
DEBVER=6.12.117-1~deb12u1
KBUILDVER=6.12.117+deb12

usage() {
	echo "usage: $0 CACHE_DIR headers|source|image" >&2
	exit 2
}
[[ $# -eq 2 ]] || usage
cache=$1
part=$2

case $part in
headers) pkgs=("linux-headers-$KVER" "linux-headers-$KBUILDVER-common" "linux-kbuild-$KBUILDVER") ;;
source) pkgs=(linux-source-6.12) ;;
image) pkgs=("linux-image-$KVER-unsigned") ;;
*) usage ;;
esac

[[ -f $cache/.$part.done ]] && exit 0
mkdir -p "$cache/debs"

fetch() { # apt-get download, once per package and version
	local p=$1 f
	f=$(compgen -G "$cache/debs/${p}_${DEBVER//\~/?}_*.deb" || true)
	[[ -n $f ]] && return 0
	echo "kernel-debs: downloading $p=$DEBVER" >&2
	if ! (cd "$cache/debs" && apt-get download -q "$p=$DEBVER" 2>/dev/null); then
		apt-get update -qq
		(cd "$cache/debs" && apt-get download -q "$p=$DEBVER")
	fi
}
deb() { compgen -G "$cache/debs/${1}_${DEBVER//\~/?}_*.deb" | head -1; }

for p in "${pkgs[@]}"; do
	fetch "$p"
done

case $part in
headers)
	for p in "${pkgs[@]}"; do
		dpkg-deb -x "$(deb "$p")" "$cache/root"
	done
	# The package's Makefile includes the -common one by its installed, absolute path.
	echo "include $cache/root/usr/src/linux-headers-$KBUILDVER-common/Makefile" \
		>"$cache/root/usr/src/linux-headers-$KVER/Makefile"
	;;
source)
	rm -rf "$cache/src.tmp" && mkdir -p "$cache/src.tmp"
	dpkg-deb --fsys-tarfile "$(deb linux-source-6.12)" |
		tar -xO ./usr/src/linux-source-6.12.tar.xz |
		tar -xJ -C "$cache/src.tmp" --strip-components=1 \
			linux-source-6.12/net/mptcp linux-source-6.12/include/net/mptcp.h \
			linux-source-6.12/scripts/checkpatch.pl linux-source-6.12/scripts/spelling.txt \
			linux-source-6.12/scripts/const_structs.checkpatch
	rm -rf "$cache/src" && mv "$cache/src.tmp" "$cache/src"
	;;
image)
	rm -rf "$cache/image" && mkdir -p "$cache/image"
	dpkg-deb -x "$(deb "linux-image-$KVER-unsigned")" "$cache/image"
	;;
esac
touch "$cache/.$part.done"
