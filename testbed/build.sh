#!/usr/bin/env bash
# Build the testbed guest from Debian packages only (usage: build.sh [--force]):
#   vmlinuz     the Debian kernel of lib.sh (kernel-schedulers/kmod/debian-kernel: downloaded by
#               package name into the kernel cache, not installed)
#   initrd.img  busybox-static + the modules that mount an ext4 virtio root
#   rootfs.img  ext4: debootstrap bookworm minbase + packages.txt + the kernel's modules
#               + guest/mpqoe-init (PID 1)
# into $TESTBED_CACHE/guest-<hash of the inputs>/. Does nothing when that exists.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

force=0
case "${1-}" in
"") ;;
--force) force=1 ;;
*)
	echo "usage: testbed/build.sh [--force]" >&2
	exit 2
	;;
esac

[[ $(id -u) == 0 ]] || die "building the guest needs root (debootstrap, file ownership)"
need debootstrap debootstrap mkfs.ext4 e2fsprogs cpio cpio xz xz-utils depmod kmod \
	gzip gzip dpkg-deb dpkg apt-get apt qemu-system-x86_64 qemu-system-x86

mkdir -p "$TESTBED_CACHE" "$TESTBED_CACHE/debs"
exec 9>"$TESTBED_CACHE/.lock"
flock 9
GUEST=$(guest_dir)
if [[ -f $GUEST/stamp && $force == 0 ]]; then
	echo "testbed: guest up to date: $GUEST"
	exit 0
fi

t_start=$EPOCHREALTIME
stage() { awk -v a="$t_start" -v b="$EPOCHREALTIME" -v m="$*" \
	'BEGIN { printf "testbed: %6.1f s  %s\n", b - a, m }'; }

W=$GUEST.tmp
cleanup() {
	# debootstrap mounts proc/sys inside the target; never leave them behind.
	if [[ -d $W/rootfs ]]; then
		findmnt -rn -o TARGET | grep -F "$W/rootfs" | sort -r | xargs -r -n1 umount -l || true
	fi
	rm -rf "$W"
}
trap cleanup EXIT
cleanup
mkdir -p "$W/initramfs/bin" "$W/initramfs/lib/modules"

# apt-get download PKG into DIR, atomically (the kernel deb dir is shared).
download() {
	local pkg=$1 dir=$2 tmp
	if compgen -G "$dir/${pkg}_*.deb" >/dev/null; then return 0; fi
	tmp=$(mktemp -d "$dir/.dl.XXXXXX")
	if ! (cd "$tmp" && apt-get download -qq "$pkg" 2>/dev/null); then
		apt-get update -qq
		(cd "$tmp" && apt-get download -qq "$pkg") || {
			rm -rf "$tmp"
			die "apt-get download $pkg failed (is bookworm-security in the apt sources?)"
		}
	fi
	mv -n "$tmp"/*.deb "$dir/"
	rm -rf "$tmp"
}

stage "the kernel $KVER ($KDEBVER: $KIMAGE_PKGS) and busybox-static"
"$DEBIAN_KERNEL" fetch "$KDEBVER" image || die "cannot fetch the kernel $KDEBVER"
download busybox-static "$TESTBED_CACHE/debs"
cp -a "$KCACHE/image" "$W/kernel"
kmods=$W/kernel/lib/modules/$KVER # fetch puts them there, whichever path the packages used
cp "$W/kernel/boot/vmlinuz-$KVER" "$W/vmlinuz"
depmod -b "${kmods%/lib/modules/$KVER}" "$KVER"

stage "initramfs"
dpkg-deb -x "$(ls "$TESTBED_CACHE"/debs/busybox-static_*.deb | tail -1)" "$W/busybox"
cp "$W/busybox/bin/busybox" "$W/initramfs/bin/busybox"
for applet in sh mount umount insmod mkdir sleep cat cut echo switch_root; do
	ln -s busybox "$W/initramfs/bin/$applet"
done
# crc32c_generic is only a soft dependency of ext4 (crc32c), hence named explicitly. The 9p,
# network and console modules are loaded here too: busybox insmod of uncompressed modules is
# about 2 s faster under TCG than modprobe of the root's .ko.xz files.
modprobe -d "${kmods%/lib/modules/$KVER}" -S "$KVER" --show-depends -a \
	virtio_blk crc32c_generic crc16 mbcache jbd2 ext4 9p 9pnet_virtio virtio_net virtio_console |
	awk '$1 == "insmod" && !seen[$2]++ { print $2 }' >"$W/modlist"
: >"$W/initramfs/modules.order"
while read -r ko; do
	name=$(basename "$ko" .xz)
	xz -dc "$ko" >"$W/initramfs/lib/modules/$name"
	echo "$name" >>"$W/initramfs/modules.order"
done <"$W/modlist"
install -m 755 "$TESTBED_DIR/initramfs-init" "$W/initramfs/init"
(cd "$W/initramfs" && find . | cpio -o -H newc --quiet | gzip -1) >"$W/initrd.img"
echo "initramfs modules: $(tr '\n' ' ' <"$W/initramfs/modules.order")"

pkgs=$(sed 's/#.*//' "$TESTBED_DIR/packages.txt" | xargs | tr ' ' ,)
stage "debootstrap bookworm minbase + $pkgs"
mkdir -p "$TESTBED_CACHE/debootstrap-debs"
# MPQOE_DEBIAN_MIRROR overrides debootstrap's default mirror.
if ! debootstrap --variant=minbase --include="$pkgs" \
	--cache-dir="$TESTBED_CACHE/debootstrap-debs" \
	bookworm "$W/rootfs" ${MPQOE_DEBIAN_MIRROR:+"$MPQOE_DEBIAN_MIRROR"} >"$W/debootstrap.log" 2>&1; then
	tail -20 "$W/debootstrap.log" >&2
	[[ -f $W/rootfs/debootstrap/debootstrap.log ]] && tail -20 "$W/rootfs/debootstrap/debootstrap.log" >&2
	die "debootstrap failed (log above)"
fi

stage "root filesystem: modules, init, image"
R=$W/rootfs
mkdir -p "$R/lib/modules/$KVER" && cp -a "$kmods/." "$R/lib/modules/$KVER/"
install -m 755 "$TESTBED_DIR/guest/mpqoe-init" "$R/usr/local/sbin/mpqoe-init"
echo testbed >"$R/etc/hostname"
printf '127.0.0.1\tlocalhost\n127.0.1.1\ttestbed\n::1\tlocalhost ip6-localhost\n' >"$R/etc/hosts"
echo "nameserver 10.0.2.3" >"$R/etc/resolv.conf"
chroot "$R" dpkg-query -W -f '${Package} ${Version}\n' >"$W/manifest.txt"
echo "kernel $KIMAGE_PKGS $KDEBVER" >>"$W/manifest.txt"
findmnt -rn -o TARGET | grep -F "$R" | sort -r | xargs -r -n1 umount -l || true
rm -rf "$R"/var/cache/apt/archives/*.deb "$R"/var/lib/apt/lists/* "$R"/dev/* "$R/debootstrap"
size_mb=$(($(du -sm "$R" | cut -f1) + 2048))
truncate -s "${size_mb}M" "$W/rootfs.img"
# No journal, no metadata checksums: the image is only read (QEMU's snapshot=on takes the
# writes), and mounting it is about 1 s faster under TCG without them.
mkfs.ext4 -q -F -L mpqoe-root -O ^has_journal,^metadata_csum -d "$R" "$W/rootfs.img"
rm -rf "$R" "$W/kernel" "$W/busybox" "$W/initramfs"

stage "done"
date -u +%FT%TZ >"$W/stamp"
rm -rf "$GUEST"
mv "$W" "$GUEST"
# Keep only the current build (each one is a few hundred MB, sparse).
for old in "$TESTBED_CACHE"/guest-*; do
	[[ $old == "$GUEST" || $old == *.tmp ]] || rm -rf "$old"
done
echo "testbed: guest built in $GUEST ($(du -sh --apparent-size "$GUEST/rootfs.img" | cut -f1) image," \
	"$(du -sh "$GUEST/rootfs.img" | cut -f1) on disk)"
