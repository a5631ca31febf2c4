#!/usr/bin/env bash
# The emulated Raspberry Pi OS Lite install check (run by .ci/run; needs root, like a CI machine).
#
# A Debian bookworm arm64 root made with debootstrap and qemu-user-static (Debian's packages), with
# the packages pi-gen's stage0-2 put on Raspberry Pi OS Lite that Debian has (the Raspberry Pi
# archive's own ones are listed and left out: this machine uses only its own apt sources), the
# host's apt sources, pip configuration and CA certificates, a user "pi" in the groups Pi OS gives
# it, Pi OS's config.txt and a /proc/device-tree/model of "Raspberry Pi Zero 2 W". The root is
# built once and cached (in $TABLESIDE_CI_CACHE, default /var/cache/tableside-ci); every run
# copies it and, in the copy:
#   1. runs `sudo systemd/install.sh --yes` as pi would (as root with SUDO_USER=pi: sudo cannot
#      gain root under qemu's binfmt handler) and prints how long it took;
#   2. starts the unit's ExecStart as the unit's User, from the unit's WorkingDirectory (systemd's
#      "/" when the unit sets none), with the unit's Environment, in a network namespace of its own
#      (loopback only), and checks that the phone panel answers, that lgpio imported (its pins
#      error is the missing GPIO chip of an emulator, never its notification pipe), and what
#      `tableside doctor`, run by pi from the home folder, says.
#
#   .ci/pi-emulated.sh [--unit FILE]   (--unit: install this unit file instead of systemd/tableside.service)
#
# binfmt_misc must be usable (qemu-user-static registers qemu-aarch64 there): without it every
# program the root starts (apt's dpkg, pip's compiler) would need the interpreter named by hand,
# which a chroot cannot do for the programs they start in turn. Then the check stops and says so.
set -euo pipefail
trap 'echo "pi-emulated: FAILED (exit $?) at line $LINENO: $BASH_COMMAND" >&2' ERR

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cache=${TABLESIDE_CI_CACHE:-/var/cache/tableside-ci}
unit_override=""
while [ $# -gt 0 ]; do
  case "$1" in
    --unit) unit_override=$(realpath "${2:?--unit needs a file}"); shift ;;
    *) echo "usage: $0 [--unit FILE]" >&2; exit 2 ;;
  esac
  shift
done

say() { printf 'pi-emulated: %s\n' "$*"; }
die() { printf 'pi-emulated: %s\n' "$*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot, mounts); run it as root or with sudo"

# -- the Pi OS Lite package set --------------------------------------------------------------------
# pi-gen (RPi-Distro/pi-gen, branch bookworm-arm64) stage0, stage1 and stage2 package lists, as
# they are. Kernels, firmware and the boot loader do nothing in a chroot but are tried all the same.
PI_OS_LITE_PACKAGES="
raspberrypi-archive-keyring locales initramfs-tools raspi-firmware linux-image-rpi-v8 linux-image-rpi-2712
linux-headers-rpi-v8 linux-headers-rpi-2712 raspi-config netbase systemd-timesyncd
ssh less fbset sudo psmisc strace ed ncdu console-setup keyboard-configuration debconf-utils parted
build-essential manpages-dev bash-completion gdb pkg-config python-is-python3 v4l-utils gpiod python3-libgpiod
python3-gpiozero pigpio python3-pigpio raspi-gpio python3-rpi-lgpio python3-spidev python3-smbus2 avahi-daemon
lua5.1 luajit ca-certificates curl fake-hwclock nfs-common usbutils dosfstools dphys-swapfile raspberrypi-sys-mods
pi-bluetooth apt-listchanges usb-modeswitch libpam-chksshpwd rpi-update libmtp-runtime rsync htop man-db
policykit-1 ssh-import-id ethtool ntfs-3g pciutils rpi-eeprom raspi-utils udisks2 unzip zip p7zip-full file
kms++-utils python3-venv rpi-keyboard-config rpi-keyboard-fw-update
wpasupplicant wireless-tools firmware-atheros firmware-brcm80211 firmware-libertas firmware-realtek
firmware-mediatek raspberrypi-net-mods network-manager net-tools
"
# stage1's /boot/firmware/config.txt for bookworm, as it is (tests/test_pi_install.py's fake Pi has it too)
PI_OS_CONFIG_TXT=$(cat "$repo/.ci/pi-os-config.txt"; printf x)
PI_OS_CONFIG_TXT=${PI_OS_CONFIG_TXT%x}  # (x keeps the final newline, which $(...) would drop)
MODEL="Raspberry Pi Zero 2 W Rev 1.0"

# -- host tools and binfmt -------------------------------------------------------------------------
need=()
command -v debootstrap >/dev/null || need+=(debootstrap)
[ -x /usr/bin/qemu-aarch64-static ] || need+=(qemu-user-static)
command -v update-binfmts >/dev/null || need+=(binfmt-support)
command -v unshare >/dev/null || need+=(util-linux)
if [ ${#need[@]} -gt 0 ]; then
  say "installing ${need[*]} (Debian's packages)"
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}" >/dev/null
fi
if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
  mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null \
    || die "binfmt_misc cannot be mounted here (a container without it?): arm64 programs cannot run, so the emulated install cannot be checked on this machine"
fi
if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
  update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
fi
grep -qx enabled /proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null \
  || die "qemu-aarch64 is not registered with binfmt_misc ('update-binfmts --enable qemu-aarch64' failed): arm64 programs cannot run here"

# -- the host's apt mirror, sources, pip configuration and CA certificates ------------------------
host_mirror() {  # the first Debian mirror the host's own apt sources name for bookworm
  local m=""
  m=$(awk '/^URIs:/ {u=$2} /^Suites:/ && / bookworm( |$)/ && u ~ /debian\/?$/ {print u; exit}' \
      /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
  [ -n "$m" ] || m=$(awk '$1=="deb" && $3=="bookworm" {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
  printf '%s' "${m:-http://deb.debian.org/debian}"
}

copy_host_config() {  # ROOT: the host's apt sources and proxy settings, pip configuration, CA certificates
  local root=$1 f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && install -D -m 0644 "$f" "$root$f"
  done
  for f in /etc/apt/apt.conf.d/*; do
    [ -f "$f" ] && grep -qi proxy "$f" && install -D -m 0644 "$f" "$root$f"
  done
  for f in /usr/local/share/ca-certificates/*; do
    [ -f "$f" ] && install -D -m 0644 "$f" "$root$f"
  done
  # the bundle itself too: the root's update-ca-certificates rebuilds the same one from the line above
  install -D -m 0644 /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"
  for f in /etc/pip.conf /etc/xdg/pip/*; do  # with the files a pip.conf names there (constraints)
    [ -f "$f" ] && install -D -m 0644 "$f" "$root$f"
  done
  # the root user's pip configuration is the machine's (CI runs as root): the Pi's pip reads it system-wide
  if [ -f "$HOME/.config/pip/pip.conf" ]; then
    { cat /etc/pip.conf 2>/dev/null; cat "$HOME/.config/pip/pip.conf"; } \
      | awk '/^\[/ {if (seen[$0]++) next} {print}' > "$root/etc/pip.conf"
  fi
}

# Local folders the host's pip configuration points at (file:// indexes, find-links) are bound
# read-only into the root, so that configuration means there what it means here.
pip_local_dirs() {
  cat /etc/pip.conf "$HOME/.config/pip/pip.conf" 2>/dev/null \
    | grep -E '^[[:space:]]*(find-links|index-url|extra-index-url)[[:space:]]*=' | cut -d= -f2- \
    | grep -oE '(file://)?/[^ ]+' | sed 's|^file://||' | while read -r p; do
      p=${p%/}
      [ "${p##*/}" = simple ] && p=${p%/*}  # a PEP 503 index links its files beside simple/
      while [ -n "$p" ] && [ ! -d "$p" ]; do p=${p%/*}; done
      [ -n "$p" ] && [ "$p" != / ] && printf '%s\n' "$p"
    done | sort -u
}

mounted=()
trap 'unmount_all' EXIT
mount_root() {  # ROOT: /dev, /dev/pts, /dev/shm, /tmp and the pip folders (no /proc: see fake_proc)
  local root=$1 d
  for d in dev dev/pts; do
    mkdir -p "$root/$d"; mount --bind "/$d" "$root/$d"; mounted=("$root/$d" "${mounted[@]}")
  done
  mkdir -p "$root/dev/shm"
  mount -t tmpfs -o mode=1777 shm "$root/dev/shm"; mounted=("$root/dev/shm" "${mounted[@]}")
  while read -r d; do
    [ -n "$d" ] || continue
    mkdir -p "$root$d"; mount --bind -o ro "$d" "$root$d"; mount -o remount,bind,ro "$root$d"
    mounted=("$root$d" "${mounted[@]}")
  done < <(pip_local_dirs)
}
unmount_all() {
  local m
  for m in "${mounted[@]}"; do umount -l "$m" 2>/dev/null || true; done
  mounted=()
}

# /proc is not mounted: the host's /proc has no device tree and a proc file system cannot be
# written, so the root's /proc is a plain folder with the one file a Pi has that matters here.
fake_proc() {
  mkdir -p "$1/proc/device-tree/system"
  printf '%s\0' "$MODEL" > "$1/proc/device-tree/model"
  printf '\x00\x90\x21\x20' > "$1/proc/device-tree/system/linux,revision"  # gpiozero's pi_info reads these
  { for cpu in 0 1 2 3; do
      printf 'processor\t: %s\nBogoMIPS\t: 38.40\nFeatures\t: fp asimd evtstrm crc32 cpuid\n' "$cpu"
      printf 'CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x0\nCPU part\t: 0xd03\nCPU revision\t: 4\n\n'
    done
    printf 'Revision\t: 902120\nSerial\t\t: 00000000c0ffee00\nModel\t\t: %s\n' "$MODEL"; } > "$1/proc/cpuinfo"
}

in_root() {  # ROOT CMD...: run CMD in the root as root, with a clean environment
  local root=$1; shift
  chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}

# -- the cached Pi OS Lite root --------------------------------------------------------------------
key=$( { printf '%s\n' "$PI_OS_LITE_PACKAGES" "$PI_OS_CONFIG_TXT" "$MODEL" v1; sed -n '/^build_base()/,/^}/p' "$0"; } | sha256sum | cut -c1-12)
base="$cache/pi-os-lite-bookworm-arm64-$key"

build_base() {
  local tmp="$base.building" started=$SECONDS available=() missing=() p
  mkdir -p "$cache"
  say "building the Pi OS Lite root (once; cached in $base)"
  if [ ! -f "$tmp/.debootstrapped" ]; then  # a build cut short after debootstrap goes on from there
    rm -rf "$tmp"
    debootstrap --arch=arm64 --include=ca-certificates,gnupg --exclude=info,ifupdown \
      bookworm "$tmp" "$(host_mirror)" > "$cache/debootstrap.log" 2>&1 \
      || { tail -n 20 "$cache/debootstrap.log" >&2; die "debootstrap failed (log: $cache/debootstrap.log)"; }
    touch "$tmp/.debootstrapped"
  fi
  copy_host_config "$tmp"
  [ -f /etc/apt/sources.list ] || rm -f "$tmp/etc/apt/sources.list"  # debootstrap's: the host's sources stand instead
  mount_root "$tmp"
  in_root "$tmp" apt-get update -q > "$cache/apt.log" 2>&1
  # a package Debian has has a candidate version (apt-cache show also names packages only referred to)
  declare -A candidate=()
  while read -r p version; do candidate[$p]=$version; done < <(
    # shellcheck disable=SC2086
    in_root "$tmp" apt-cache policy $PI_OS_LITE_PACKAGES 2>/dev/null \
      | awk '/^[^ ].*:$/ {sub(/:$/, ""); p=$0} /Candidate:/ {print p, $2}')
  for p in $PI_OS_LITE_PACKAGES; do
    if [ -n "${candidate[$p]:-}" ] && [ "${candidate[$p]}" != "(none)" ]; then available+=("$p"); else missing+=("$p"); fi
  done
  say "Pi OS Lite packages Debian has: ${#available[@]}; only in the Raspberry Pi archive (left out): ${missing[*]}"
  printf '%s\n' "${missing[@]}" > "$tmp/.pi-archive-only"
  in_root "$tmp" dpkg --configure -a >> "$cache/apt.log" 2>&1 || true  # a build cut short mid-install
  in_root "$tmp" apt-get install -y -q --no-install-recommends "${available[@]}" >> "$cache/apt.log" 2>&1 \
    || { tail -n 30 "$cache/apt.log" >&2; die "installing the Pi OS Lite packages failed (log: $cache/apt.log)"; }
  in_root "$tmp" update-ca-certificates >/dev/null 2>&1 || true
  # What pi-gen does beyond packages: the first user (stage1), its groups (stage2 01-sys-tweaks), config.txt.
  in_root "$tmp" sh -c 'for g in input spi i2c gpio; do groupadd -f -r $g; done
    id -u pi >/dev/null 2>&1 || adduser --disabled-password --gecos "" pi >/dev/null
    for g in adm dialout cdrom audio users sudo video games plugdev input gpio spi i2c netdev render; do
      getent group $g >/dev/null && adduser pi $g >/dev/null; done
    echo "pi ALL=(ALL) NOPASSWD: ALL" > /etc/sudoers.d/010_pi-nopasswd; chmod 0440 /etc/sudoers.d/010_pi-nopasswd'
  mkdir -p "$tmp/boot/firmware"
  printf '%s' "$PI_OS_CONFIG_TXT" > "$tmp/boot/firmware/config.txt"
  echo raspberrypi > "$tmp/etc/hostname"
  printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n\n127.0.1.1\t\traspberrypi\n' > "$tmp/etc/hosts"
  in_root "$tmp" apt-get clean
  unmount_all
  rm -f "$tmp/.debootstrapped"
  mv "$tmp" "$base"
  say "root built in $((SECONDS - started)) s"
}

if [ ! -d "$base" ]; then
  build_base
fi
[ "${PI_EMULATED_BASE_ONLY:-0}" = 1 ] && { say "base root ready: $base"; exit 0; }

# -- a fresh copy, and Tableside installed in it as pi would ---------------------------------------
# Each run has its own copy and logs (two CI runs on one machine must not share one), removed at
# the end; copies left by a run that was killed are removed here once nothing is mounted in them.
for old in "$cache"/run-*; do
  [ -d "$old" ] || continue
  pid=${old##*/run-}; pid=${pid%%-*}
  kill -0 "$pid" 2>/dev/null && continue
  grep -q " $old/" /proc/mounts || rm -rf "$old"
done
tag=${unit_override:+-unit}
run_root="$cache/run-$$$tag"
remove_run() {  # whatever still runs in the copy (the server, its render worker) first
  local p
  for p in /proc/[0-9]*; do
    [ "$(readlink "$p/root" 2>/dev/null)" = "$run_root" ] && kill -KILL "${p#/proc/}" 2>/dev/null
  done
  unmount_all
  if ! grep -q " $run_root/" /proc/mounts; then rm -rf "$run_root"; fi
}
trap remove_run EXIT
cp -a --reflink=auto "$base" "$run_root"
copy_host_config "$run_root"  # this machine's configuration as it is today
fake_proc "$run_root"
# the checkout pi cloned: this tree as it is (what CI tests), without the local venv and caches
mkdir -p "$run_root/home/pi/tableside"
tar -C "$repo" --exclude=./.venv --exclude=./.git --exclude=./.hypothesis --exclude=./.pytest_cache \
  --exclude=./.ruff_cache --exclude='*.egg-info' --exclude='__pycache__' -cf - . | tar -C "$run_root/home/pi/tableside" -xf -
if [ -n "$unit_override" ]; then
  say "installing $unit_override instead of systemd/tableside.service"
  cp "$unit_override" "$run_root/home/pi/tableside/systemd/tableside.service"
fi
in_root "$run_root" chown -R pi:pi /home/pi/tableside
mount_root "$run_root"
log="$cache/install-$$$tag.log"
say "running 'sudo systemd/install.sh --yes' as pi in the emulated Pi OS Lite (log: $log)"
started=$SECONDS
if ! chroot "$run_root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LANG=C.UTF-8 TERM=dumb SUDO_USER=pi SUDO_UID=1000 SUDO_GID=1000 \
    bash -c 'cd /home/pi/tableside && exec bash systemd/install.sh --yes' > "$log" 2>&1; then
  tail -n 25 "$log" >&2
  die "systemd/install.sh --yes failed in the emulated Pi OS Lite (log: $log)"
fi
install_seconds=$((SECONDS - started))
say "install.sh --yes took ${install_seconds} s (emulated arm64 on $(nproc) host core(s))"
grep -E "^== |from where|binary wheels|built here|REBOOT|reboot" "$log" | sed 's/^/  | /'
# a wheel pip built here is tagged linux_aarch64; one downloaded from PyPI is manylinux_*
compiled=$(grep -l "^Tag: .*-linux_aarch64$" "$run_root"/opt/tableside/venv/lib/python3*/site-packages/*.dist-info/WHEEL \
  2>/dev/null | sed 's|.*/\([^/]*\)\.dist-info/WHEEL|\1|' | tr '\n' ' ' || true)

# -- the service, started as systemd would ----------------------------------------------------------
unit="$run_root/etc/systemd/system/tableside.service"
[ -f "$unit" ] || die "install.sh wrote no unit at /etc/systemd/system/tableside.service"
unit_value() { sed -n "s/^$1=//p" "$unit" | tail -n 1; }
svc_user=$(unit_value User)
svc_group=$(unit_value Group)
workdir=$(unit_value WorkingDirectory)
workdir=${workdir#-}
exec_start=$(unit_value ExecStart)
state_dir=$(unit_value StateDirectory)
supplementary=$(unit_value SupplementaryGroups | tr ' ' ',')
mapfile -t unit_env < <(sed -n 's/^Environment=//p' "$unit" | xargs -n1 printf '%s\n')
say "the unit: User=$svc_user WorkingDirectory=${workdir:-(none: systemd uses /)} Environment=${unit_env[*]}"
if [ -n "$state_dir" ]; then  # systemd makes StateDirectory= for the user before it starts the service
  in_root "$run_root" install -d -m 0755 -o "$svc_user" -g "${svc_group:-$svc_user}" "/var/lib/$state_dir"
fi
cwd=${workdir:-/}
groups=""
for g in ${supplementary//,/ }; do grep -q "^$g:" "$run_root/etc/group" && groups="$groups,$g"; done
as_service=(chroot --userspec="$svc_user:${svc_group:-$svc_user}" --groups="${groups#,}" "$run_root"
  /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 HOME=/nonexistent "${unit_env[@]}")

failures=()
check() {  # check WHAT OK: record a failed check, say each
  if [ "$2" = 0 ]; then say "  ok    $1"; else say "  FAIL  $1"; failures+=("$1"); fi
}

# lgpio creates its notification pipe where the service runs, at import
lgpio_out=$("${as_service[@]}" /bin/sh -c "cd '$cwd' && exec /opt/tableside/venv/bin/python -c 'import lgpio; print(\"lgpio\", lgpio.__file__)'" 2>&1 || true)
check "lgpio imports as $svc_user in $cwd ($(tail -n 1 <<<"$lgpio_out"))" "$(grep -q '^lgpio /' <<<"$lgpio_out"; echo $?)"
owner=$(in_root "$run_root" stat -c %U "$cwd")
check "the unit's working directory $cwd belongs to $svc_user (owner: $owner)" "$([ "$owner" = "$svc_user" ]; echo $?)"

# ExecStart in a network namespace of its own (only loopback: nothing reaches the host's network)
port=$(sed -n 's/^port *= *\([0-9]*\).*/\1/p' "$run_root/etc/tableside/tableside.toml" | head -n 1)
port=${port:-8080}
serve_log="$cache/serve-$$$tag.log"
probe=$(CWD=$cwd EXEC=$exec_start SERVE_LOG=$serve_log ROOT=$run_root PORT=$port unshare --net bash -c '
  ip link set lo up
  cd /
  "$@" /bin/sh -c "cd \"$CWD\" && exec $EXEC" > "$SERVE_LOG" 2>&1 &  # $! is the server itself
  pid=$!
  for _ in $(seq 1 240); do
    if chroot "$ROOT" curl -fsS "http://127.0.0.1:$PORT/healthz" > /dev/null 2>&1; then break; fi
    kill -0 $pid 2>/dev/null || break
    sleep 0.5
  done
  echo "healthz: $(chroot "$ROOT" curl -fsS "http://127.0.0.1:$PORT/healthz" 2>&1)"
  for _ in $(seq 1 120); do grep -q "^Buttons:" "$SERVE_LOG" && break; sleep 0.5; done
  code=$(cat "$ROOT/var/lib/tableside/join_code" 2>/dev/null)
  chroot "$ROOT" curl -fsS -c /tmp/jar -o /dev/null "http://127.0.0.1:$PORT/join?code=$code" 2>&1
  echo "hardware: $(chroot "$ROOT" curl -fsS -b /tmp/jar "http://127.0.0.1:$PORT/api/hardware" 2>&1)"
  kill -TERM $pid 2>/dev/null; wait $pid 2>/dev/null
  echo "stopped: $?"
' probe "${as_service[@]}" 2>&1 \
  ) < /dev/null || true
sed 's/^/  | /' <<<"$probe"
check "the panel answers as $svc_user from $cwd (GET /healthz)" "$(grep -q '^healthz: {"ok":true}' <<<"$probe"; echo $?)"
buttons=$(grep -m1 "^Buttons:" "$serve_log" || echo "Buttons: (no line: the hardware never came up)")
say "  | $buttons"
# an emulator has no GPIO chip: lgpio loaded, and the buttons report the missing chip, never lgpio's pipe
check "lgpio loaded under the service (its error is the emulator's missing GPIO chip)" \
  "$(grep -q "no GPIO chip" <<<"$buttons" && ! grep -qE "lgd-nfy|cannot write|failed to load \(" <<<"$buttons"; echo $?)"
check "/api/hardware answers with the buttons' state" "$(grep -q '^hardware: {.*"buttons"' <<<"$probe"; echo $?)"

# -- what the doctor says, run by pi from the home folder (its own network namespace: the port check) --
doctor=$(unshare --net chroot --userspec=pi:pi --groups=pi,gpio,spi,i2c "$run_root" /usr/bin/env -i PATH=/usr/bin:/bin \
  HOME=/home/pi LANG=C.UTF-8 USER=pi /bin/sh -c 'cd && exec /opt/tableside/venv/bin/tableside doctor' 2>&1) \
  && doctor_rc=0 || doctor_rc=$?
sed 's/^/  | /' <<<"$doctor"
check "doctor: the service runs from a folder it owns" "$(grep -q "^ok   the service runs from $cwd" <<<"$doctor"; echo $?)"
check "doctor: its live checks ran as $svc_user from $cwd" \
  "$(grep -q "^ok   user $svc_user can write its working directory $cwd" <<<"$doctor"; echo $?)"
check "doctor: SPI, I2C and the overlay wait for the reboot the installer asked for" \
  "$(grep -q "^FIX  SPI is turned on in .* a reboot is pending" <<<"$doctor" \
     && grep -q "^FIX  dtoverlay=spi0-0cs is set but not active yet" <<<"$doctor"; echo $?)"
check "doctor: the missing GPIO chip is named as such, not as a group problem" \
  "$(grep -q "no GPIO chip" <<<"$doctor" && ! grep -q "not in the group" <<<"$doctor"; echo $?)"
check "doctor: never names itself as the fix" "$(! grep -q -- "-> .*tableside doctor" <<<"$doctor"; echo $?)"
check "doctor: exit 1 (a reboot is pending)" "$([ "$doctor_rc" = 1 ]; echo $?)"

say "install time: ${install_seconds} s for 'sudo systemd/install.sh --yes' (compiled here: ${compiled:-nothing})"
unmount_all
if [ ${#failures[@]} -gt 0 ]; then
  printf 'pi-emulated: FAILED: %s\n' "${failures[@]}" >&2
  exit 1
fi
say "ok: the emulated Pi OS Lite install works"
