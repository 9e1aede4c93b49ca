# SPDX-License-Identifier: BSD-3-Clause
# Shared by tools/wr-setup and devtools/wr-test: install what is missing, reserve
# hugepages, build.  Sourced, not run.

WR_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
WR_PACKAGES=(dpdk dpdk-dev libdpdk-dev meson ninja-build pkg-config gcc
    libyaml-dev libcunit1-dev libnuma-dev libpcap-dev libssl-dev libbpf-dev
    libjansson-dev libxdp-dev python3 python3-matplotlib python3-prometheus-client
    python3-scapy tshark tcpdump iproute2 iputils-ping chromium chromium-driver
    python3-selenium firefox-esr clang libclang-rt-14-dev
    debhelper dh-python dpkg-dev lintian man-db bash-completion zsh systemd python3-venv)
# The peers the emulated hosts are tested against (test/integration/
# test_dhcp4.py, test_dhcp6.py): the DHCP server's binary alone
# (dnsmasq-base, not the package that runs it as a system-wide service),
# radvd for SLAAC; ethtool turns veth's UDP checksum offload off on the
# server's end (af_packet sees the kernel's checksums unfinished).
WR_PACKAGES+=(dnsmasq-base radvd ethtool)
# The stateful engine's peers (test/integration/test_tcp_*.py, tools/wr-seed-002):
# clients (curl, wget, OpenBSD's nc, socat) and servers (nginx-light,
# python3's http.server) of the kernel's TCP; iptables drops SYNs for the
# server that never answers.
WR_PACKAGES+=(curl wget netcat-openbsd socat nginx-light iptables)

wr_say() { printf '== %s\n' "$*" >&2; }

# Install the Debian packages that are not there yet (apt-get update only
# when something is missing: a warm machine pays nothing).
wr_install() {
    local missing=() p
    for p in "${WR_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
            missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && { wr_otg_venv; return; }
    if [ "$(id -u)" -ne 0 ]; then
        wr_say "missing packages: ${missing[*]} (run as root to install them)"
        return 1
    fi
    wr_say "installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    wr_otg_venv
}

# At least $1 free 2 MB hugepages (default 512 = 1 GiB), mounted, through
# tools/wr-hugepages (which never unmounts or shrinks what is in use).
wr_hugepages() {
    local want=${1:-512} free total
    free=$(awk '/^HugePages_Free:/ {print $2}' /proc/meminfo)
    total=$(awk '/^HugePages_Total:/ {print $2}' /proc/meminfo)
    if [ "$free" -ge "$want" ] && mountpoint -q /dev/hugepages; then
        return 0
    fi
    [ "$free" -ge "$want" ] && want=0
    "$WR_ROOT/tools/wr-hugepages" reserve $((total + want - free)) --size 2M >&2
}

# build-venv/: what Debian does not package, from PyPI, pinned:
# kubernetes-validate (the Kubernetes schemas, offline) for test/deploy.
WR_VENV_PACKAGES=(kubernetes-validate==1.37.0)
wr_venv() {
    local venv="$WR_ROOT/build-venv"
    if [ -x "$venv/bin/kubernetes-validate" ]; then
        return 0
    fi
    wr_say "installing ${WR_VENV_PACKAGES[*]} into build-venv/"
    /usr/bin/python3 -m venv "$venv"
    "$venv/bin/pip" install -q "${WR_VENV_PACKAGES[@]}"
}

# tools/otg/.venv: snappi (the OTG client, PyPI) and what it pulls in, pinned
# in tools/otg/requirements.txt, for test/integration/test_otg_*.py (they add
# its site-packages to /usr/bin/python3's path: Debian's pip is externally
# managed).  Made again when the requirements change; about 40 s cold.
wr_otg_venv() {
    local venv="$WR_ROOT/tools/otg/.venv" req="$WR_ROOT/tools/otg/requirements.txt"
    if [ -f "$venv/requirements.txt" ] && cmp -s "$req" "$venv/requirements.txt"; then
        return 0
    fi
    wr_say "installing tools/otg/requirements.txt (snappi) into tools/otg/.venv"
    rm -rf "$venv"
    /usr/bin/python3 -m venv "$venv" &&
        "$venv/bin/pip" install -q --disable-pip-version-check -r "$req" &&
        cp "$req" "$venv/requirements.txt"
}

# Build into $1 (default build/) with -Dwerror=true.
wr_build() {
    local dir=${1:-build}
    cd "$WR_ROOT"
    if [ ! -f "$dir/build.ninja" ]; then
        meson setup "$dir" -Dwerror=true >/dev/null
    fi
    ninja -C "$dir" >/dev/null
}

# WR_RUN_ARGS: the arguments "$@" for tools/wr-setup's `wirerate run`, with
# --duration 5 first unless they end the run themselves (--duration or
# --count before any "--": what follows belongs to EAL).
wr_run_args() {
    local a
    WR_RUN_ARGS=(--duration 5 "$@")
    for a in "$@"; do
        case $a in
        --) break ;;
        --duration | --duration=* | --count | --count=*)
            WR_RUN_ARGS=("$@")
            break ;;
        esac
    done
}
