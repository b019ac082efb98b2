# Shared by testbed/build.sh, testbed/run and the Makefile (sourced, bash).
# Where things are, which kernel, and the hash that names a guest build.

TESTBED_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$TESTBED_DIR/.." && pwd)

CACHE_ROOT=${MPQOE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mpqoe}
TESTBED_CACHE=${MPQOE_TESTBED_CACHE:-$CACHE_ROOT/testbed}

# The kernel: the one the scheduler modules are built for (MPQOE_KERNEL, default the newest
# Debian 12 build of 6.12), named and fetched by kernel-schedulers/kmod/debian-kernel, whose
# cache (KCACHE) the two share. Sets KVER, KDEBVER, KIMAGE_PKGS, KCACHE.
DEBIAN_KERNEL=$REPO_DIR/kernel-schedulers/kmod/debian-kernel
if ! kinfo=$("$DEBIAN_KERNEL" resolve); then
	echo "testbed: no kernel to build the guest with (above)" >&2
	exit 2
fi
eval "$kinfo"
unset kinfo

# Every file whose content goes into the guest image. Changing one of them (or the kernel
# version) changes the hash, hence the build directory, hence a rebuild.
GUEST_INPUTS=(build.sh lib.sh packages.txt initramfs-init guest/mpqoe-init)

die() {
	echo "testbed: $*" >&2
	exit 1
}

guest_hash() {
	(
		cd "$TESTBED_DIR" &&
			{ echo "$KVER $KDEBVER"; cat "${GUEST_INPUTS[@]}"; } | sha256sum | cut -c1-16
	)
}

guest_dir() {
	echo "$TESTBED_CACHE/guest-$(guest_hash)"
}

# Install Debian packages for missing host commands: need CMD PKG [CMD PKG ...]
need() {
	local missing=()
	while (($#)); do
		command -v "$1" >/dev/null 2>&1 || [[ -x /usr/sbin/$1 ]] || missing+=("$2")
		shift 2
	done
	((${#missing[@]})) || return 0
	[[ $(id -u) == 0 ]] || die "missing ${missing[*]}: run as root or apt-get install ${missing[*]}"
	echo "testbed: installing ${missing[*]} (apt-get)" >&2
	apt-get update -qq >&2 &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
			"${missing[@]}" >&2 || die "apt-get install ${missing[*]} failed"
}
