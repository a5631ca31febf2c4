#!/usr/bin/env bash
# Tableside on Raspberry Pi OS Bookworm (Lite or desktop, 64- or 32-bit): the only step that needs root.
#
#   sudo systemd/install.sh [--user NAME] [--hostname NAME] [--port N] [--yes] [--no-interfaces]
#   systemd/install.sh --dry-run [--root DIR] [--arch ARCH] [--user NAME]     (prints every step, changes nothing)
#
# Steps (each skipped when already done, so running it again is safe):
#  1. apt packages the Python wheels need where no wheel exists (python3-dev for spidev on every Pi,
#     swig + liblgpio-dev where lgpio must be built (Python 3.13), piwheels' runtime libraries on 32-bit)
#  2. a venv in /opt/tableside/venv (PEP 668: never a system-wide pip) with Tableside installed in it:
#     binary wheels only for numpy, Pillow, gpiod and lgpio (PyPI on 64-bit, piwheels on 32-bit, as
#     Pi OS configures pip), versions bounded by systemd/pi-constraints.txt, so a new source release
#     never wins over the wheel; the dry run lists what comes from where
#  3. SPI and I2C on (raspi-config nonint, or the same config.txt lines where there is no raspi-config)
#  4. dtoverlay=spi0-0cs in config.txt, so the Inky can drive GPIO8 itself: where Pimoroni's installer
#     puts it (an existing "#dtoverlay=spi0-0cs" is uncommented, else it goes at the end), but always
#     in an [all] section, with a backup of config.txt first
#  5. the service user in the gpio, spi and i2c groups; polkit lets it power off (the shutdown chord)
#  6. /etc/tableside/tableside.toml from the commented template (an existing one is kept)
#  7. the systemd unit, installed, enabled and (re)started; the hostname, when asked
#  8. says whether a reboot is needed before the display works; it is noted in /run/reboot-required the
#     moment config.txt changes (a run that fails later still leaves the note), and a re-run says so too
# -E: the ERR trap below also fires inside functions and subshells, so every failure names its step.
set -Eeuo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
root=""          # a prefix for every system path: tests point it at a fake Pi (with --dry-run)
dry=0
assume_yes=0
interfaces=ask
user=""
new_hostname=""
port=8080
arch=""
venv=/opt/tableside/venv
data=/var/lib/tableside
reboot_reasons=()
current_step="starting"

say() { printf '%s\n' "$*"; }
step() { current_step=$*; printf '\n== %s\n' "$*"; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 2; }

usage() {
  sed -n '2,6p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

given_args="$*"
while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) dry=1 ;;
    --root) root=${2:?--root needs a folder}; shift ;;
    --arch) arch=${2:?--arch needs arm64, armhf or armel}; shift ;;
    --user) user=${2:?--user needs a name}; shift ;;
    --hostname) new_hostname=${2:?--hostname needs a name}; shift ;;
    --port) port=${2:?--port needs a number}; shift ;;
    --yes|-y) assume_yes=1 ;;
    --no-interfaces) interfaces=no ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option $1" ;;
  esac
  shift
done
root=${root%/}

# run CMD...: do it, or in a dry run print it
run() {
  if [ "$dry" = 1 ]; then
    printf '  would run: %s\n' "$*"
  else
    printf '  running: %s\n' "$*"
    "$@"
  fi
}

# put_file DEST MODE < content: write DEST when its content differs; says what it did
put_file() {
  local dest=$1 mode=$2 tmp
  tmp=$(mktemp)
  cat > "$tmp"
  if [ -f "$dest" ] && cmp -s "$tmp" "$dest"; then
    say "  $dest is up to date"
    rm -f "$tmp"
    return 1
  fi
  if [ "$dry" = 1 ]; then
    say "  would write $dest (mode $mode):"
    sed 's/^/    | /' "$tmp"
    rm -f "$tmp"
  else
    mkdir -p "$(dirname "$dest")"
    install -m "$mode" "$tmp" "$dest"
    rm -f "$tmp"
    say "  wrote $dest"
  fi
  return 0
}

ask() {  # ask QUESTION: yes with --yes; no when nobody can answer
  if [ "$assume_yes" = 1 ]; then return 0; fi
  if [ ! -t 0 ]; then return 1; fi
  local answer
  read -r -p "$1 [Y/n] " answer
  [[ -z "$answer" || "$answer" =~ ^[Yy] ]]
}

trap 'rc=$?; [ -n "${failed_once:-}" ] && exit "$rc"; failed_once=1; printf "\ninstall.sh: step \"%s\" failed (exit %s) at line %s: %s\n  Fix what it says above and run the installer again: every step that is done is skipped.\n" "$current_step" "$rc" "$LINENO" "$BASH_COMMAND" >&2; exit "$rc"' ERR

# need_reboot REASON: noted at once in /run/reboot-required (tableside doctor reads it), not only at the end
need_reboot() {
  local reason=$1 r
  for r in "${reboot_reasons[@]}"; do [ "$r" = "$reason" ] && return 0; done
  reboot_reasons+=("$reason")
  if [ "$dry" = 0 ]; then
    grep -qxF "Tableside: $reason" "$root/run/reboot-required" 2>/dev/null \
      || printf 'Tableside: %s\n' "$reason" >> "$root/run/reboot-required"
  fi
}

# with_line LINE FILE: FILE with LINE on for every board, where Pimoroni's installer puts it: an existing
# "#LINE" is uncommented where it is, else it goes at the end, after "[all]" if another section ends the file
with_line() {
  awk -v line="$1" '
    { lines[NR] = $0 }
    /^[[:space:]]*\[[^]]*\][[:space:]]*$/ {
      s = $0; gsub(/[[:space:]\[\]]/, "", s); section[NR] = tolower(s); last = tolower(s)
    }
    END {
      cur = "all"; found = 0; commented = 0
      for (i = 1; i <= NR; i++) {
        if (i in section) cur = section[i]
        t = lines[i]; sub(/[[:space:]]*(#.*)?$/, "", t)
        if (t ~ "^[[:space:]]*" line "([,].*)?$" && cur == "all") found = i
        else if (lines[i] ~ "^#[[:space:]]*" line "[[:space:]]*$" && cur == "all" && !commented) commented = i
      }
      for (i = 1; i <= NR; i++) {
        if (!found && i == commented) print line; else print lines[i]
      }
      if (!found && !commented) {
        if (last != "" && last != "all") print "[all]"
        print line
      }
    }' "$2"
}

# change_config LINE REASON: add LINE to config.txt (backed up first) and note the reboot it needs
change_config() {
  local line=$1 reason=$2 new backup
  new=$(mktemp)
  with_line "$line" "$boot_config" > "$new"
  if cmp -s "$new" "$boot_config"; then rm -f "$new"; return 1; fi
  backup="${boot_config%.txt}.preinstall-tableside-$(date +%Y-%m-%d-%H-%M-%S).txt"
  if [ "$dry" = 1 ]; then
    say "  would back up $boot_config to $backup and change it:"
    diff -u "$boot_config" "$new" | sed -n '3,$p' | sed 's/^/    /' || true
  else
    [ -e "$backup" ] || cp -p "$boot_config" "$backup"
    cat "$new" > "$boot_config"
    say "  added $line to $boot_config (backup: $backup)"
  fi
  rm -f "$new"
  need_reboot "$reason"
  return 0
}

# -- 0. where are we ------------------------------------------------------------------------------
step "Checking this is a Raspberry Pi"
model=""
if [ -r "$root/proc/device-tree/model" ]; then
  model=$(tr -d '\0' < "$root/proc/device-tree/model")
fi
if [[ "$model" != "Raspberry Pi"* ]]; then
  if [ "$dry" = 1 ]; then
    say "  not a Raspberry Pi (${model:-no /proc/device-tree/model}): a real run would stop here; showing the steps anyway"
  else
    die "this is not a Raspberry Pi (${model:-no $root/proc/device-tree/model}). Tableside runs anywhere with
  'tableside serve' (simulated display and buttons); this installer is for a Pi. See every step with --dry-run."
  fi
else
  say "  $model"
fi
if [ "$dry" = 0 ]; then
  [ -z "$root" ] || die "--root is only for --dry-run (it reads a copy of a Pi's files)"
  [ "$(id -u)" -eq 0 ] || die "run it with sudo: sudo $0 $given_args"
fi
user=${user:-${SUDO_USER:-$(id -un)}}
if [ "$user" = root ]; then
  [ "$dry" = 1 ] || die "name the user the table runs as: sudo $0 --user pi  (never root)"
fi
group_file="$root/etc/group"
passwd_file="$root/etc/passwd"
if [ -f "$passwd_file" ] && ! grep -q "^$user:" "$passwd_file"; then
  [ "$dry" = 1 ] || die "no user $user on this Pi (use --user NAME)"
  say "  (no user $user in $passwd_file: a real run would stop here)"
fi
primary_group=$user
if [ -f "$passwd_file" ] && [ -f "$group_file" ]; then
  gid=$(awk -F: -v u="$user" '$1==u {print $4}' "$passwd_file")
  primary_group=$(awk -F: -v g="$gid" '$3==g {print $1; exit}' "$group_file")
  primary_group=${primary_group:-$user}
fi
say "  the table will run as user $user"

codename=unknown
os_name="an unknown system (no /etc/os-release)"
if [ -r "$root/etc/os-release" ]; then
  codename=$(. "$root/etc/os-release" && printf '%s' "${VERSION_CODENAME:-unknown}")
  os_name=$(. "$root/etc/os-release" && printf '%s' "${PRETTY_NAME:-${NAME:-an unknown system}}")
fi
case "$codename" in
  bookworm) python_minor=11 ;;
  trixie) python_minor=13 ;;
  *) python_minor=$(python3 -c 'import sys; print(sys.version_info[1])' 2>/dev/null || echo 11)
     say "  warning: made for Raspberry Pi OS Bookworm; this is '$codename' (carrying on)" ;;
esac
arch_given=$arch
if [ -z "$arch" ]; then
  arch=$(dpkg --print-architecture 2>/dev/null || uname -m)
fi
if [[ "$model" == "Raspberry Pi"* ]]; then
  say "  Raspberry Pi OS $codename, $arch, Python 3.$python_minor"
else  # a laptop's dry run: name what it is, and plan a Pi's steps, never a 32-bit Pi's for an amd64 laptop
  say "  $os_name, $arch, Python 3.$python_minor: not Raspberry Pi OS on a Pi"
  case "$arch" in
    arm64|aarch64|armhf|armel|armv7l|armv6l) ;;
    *) if [ -z "$arch_given" ]; then
         say "  $arch is no Raspberry Pi's: the steps below are a 64-bit Pi's (arm64); --arch armhf shows a 32-bit Pi's"
         arch=arm64
       fi ;;
  esac
fi

boot_config=""
for candidate in "$root/boot/firmware/config.txt" "$root/boot/config.txt"; do
  if [ -f "$candidate" ]; then boot_config=$candidate; break; fi
done

# -- 1. packages ----------------------------------------------------------------------------------
step "1. Packages for the Python wheels that must be built here"
# spidev has no wheel for any Pi (gcc + Python.h); avahi makes http://HOSTNAME.local work; polkitd
# lets the service user switch the Pi off.
packages=(python3-venv python3-dev gcc avahi-daemon polkitd)
case "$arch" in
  arm64|aarch64) ;;
  *) # 32-bit: numpy, Pillow and gpiod come from piwheels and need these libraries at run time
     packages+=(libopenblas0 libopenjp2-7 libtiff6 libxcb1 liblcms2-2 libwebpdemux2 libwebpmux3 libfreetype6) ;;
esac
if [ "$python_minor" -ge 13 ]; then
  packages+=(swig liblgpio-dev)  # no lgpio wheel for Python 3.13 (armv7l and aarch64 have one for 3.11)
fi
installed() {
  awk -v p="$1" '$1=="Package:" {pkg=$2} $1=="Status:" && pkg==p {print $4; exit}' \
    "$root/var/lib/dpkg/status" 2>/dev/null | grep -qx installed
}
missing=()
for p in "${packages[@]}"; do installed "$p" || missing+=("$p"); done
if [ ${#missing[@]} -eq 0 ]; then
  say "  all there: ${packages[*]}"
else
  say "  missing: ${missing[*]} (from this Pi's apt sources)"
  run apt-get update
  run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi

# -- 2. venv --------------------------------------------------------------------------------------
step "2. Tableside in its own venv ($venv)"
if [ -x "$root$venv/bin/python" ]; then
  say "  the venv exists"
else
  run python3 -m venv "$root$venv"
fi
# Where each heavy package comes from. Only binary wheels for these: a new source release on PyPI
# must never beat piwheels' (or PyPI's) older wheel, and Pi OS Lite cannot build Pillow or numpy.
binary_only=numpy,pillow,gpiod,lgpio
[ "$python_minor" -ge 13 ] && binary_only=numpy,pillow,gpiod  # lgpio is built there (see step 1)
extra_index=()
piwheels=https://www.piwheels.org/simple
pip_conf=$(cat "$root/etc/pip.conf" "$root/etc/xdg/pip/pip.conf" 2>/dev/null || true)
case "$arch" in
  arm64|aarch64)
    say "  from where ($arch, Python 3.$python_minor):"
    say "    numpy, Pillow, gpiod, lgpio: binary wheels (manylinux aarch64) from PyPI; never built here"
    say "    spidev: built here from its source on PyPI (no Pi has a wheel for it: gcc + python3-dev)"
    ;;
  *)
    if grep -q "piwheels.org" <<<"$pip_conf"; then
      where="piwheels ($piwheels, as Pi OS configures it in /etc/pip.conf)"
    else
      where="piwheels ($piwheels: not in this Pi's /etc/pip.conf, so named here)"
      extra_index=(--extra-index-url "$piwheels")
    fi
    say "  from where ($arch, Python 3.$python_minor):"
    say "    numpy, Pillow, gpiod: binary wheels (linux_armv7l) from $where; never built here"
    say "    lgpio: binary wheel (linux_armv7l) from PyPI"
    say "    spidev: a wheel from piwheels where it has one, else built here (gcc + python3-dev)"
    ;;
esac
say "    Flask, h11, gpiozero, inky and the rest: pure-Python wheels from PyPI"
say "    versions bounded by $repo/systemd/pi-constraints.txt"
pip_args=(--prefer-binary --only-binary="$binary_only" --constraint "$repo/systemd/pi-constraints.txt" "${extra_index[@]}")
# Built from a copy: pip builds in the source tree, and root-owned build files would be left in
# the user's checkout.
if [ "$dry" = 1 ]; then
  say "  would copy $repo (without .venv, .git, caches) to a build folder"
  run "$root$venv/bin/pip" install --quiet --upgrade "${pip_args[@]}" "BUILD-FOLDER[dice]"
else
  build=$(mktemp -d)
  tar -C "$repo" --exclude=./.venv --exclude=./.git --exclude='*.egg-info' --exclude=./build \
    --exclude=./.hypothesis --exclude=./.pytest_cache --exclude=./.ruff_cache -cf - . | tar -C "$build" -xf -
  # [dice]: smart dice over Bluetooth (bleak, godice; docs/smart-dice.md), pure Python and a wheel.
  if ! run "$root$venv/bin/pip" install --quiet --upgrade "${pip_args[@]}" "$build[dice]"; then
    # Most likely a wheel this Pi has none of (lgpio on a new Python): give pip what building needs.
    say "  pip failed; installing swig, liblgpio-dev and python3-dev in case lgpio must be built, then again"
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends swig liblgpio-dev python3-dev
    run "$root$venv/bin/pip" install --upgrade --prefer-binary --only-binary=numpy,pillow,gpiod \
      --constraint "$repo/systemd/pi-constraints.txt" "${extra_index[@]}" "$build[dice]"
  fi
  rm -rf "$build"
fi

# -- 3. SPI and I2C -------------------------------------------------------------------------------
step "3. SPI and I2C (the Inky talks SPI; its EEPROM says which board it is over I2C)"
if [ "$interfaces" = no ]; then
  say "  skipped (--no-interfaces): 'tableside doctor' says if they are off"
elif [ "$dry" = 1 ] || ask "Turn SPI and I2C on now?"; then
  # raspi-config's get_spi/get_i2c read these same config.txt lines; without raspi-config (Debian on a
  # Pi, an image being prepared) the installer writes them itself, as raspi-config would
  if [ -n "$boot_config" ] && grep -Eq '^[[:space:]]*dtparam=spi=on' "$boot_config"; then
    say "  SPI is already on in $boot_config"
    [ -e "$root/dev/spidev0.0" ] || need_reboot "SPI was turned on in config.txt and is not active yet"
  elif command -v raspi-config >/dev/null || [ "$dry" = 1 ]; then
    run raspi-config nonint do_spi 0
    need_reboot "SPI was turned on"
  elif [ -n "$boot_config" ]; then
    say "  no raspi-config here: turning SPI on in $boot_config itself"
    change_config "dtparam=spi=on" "SPI was turned on" || true
  fi
  if [ -n "$boot_config" ] && grep -Eq '^[[:space:]]*dtparam=i2c(_arm)?=on' "$boot_config"; then
    say "  I2C is already on in $boot_config"
    [ -e "$root/dev/i2c-1" ] || need_reboot "I2C was turned on in config.txt and is not active yet"
  elif command -v raspi-config >/dev/null || [ "$dry" = 1 ]; then
    run raspi-config nonint do_i2c 0
    need_reboot "I2C was turned on"
  elif [ -n "$boot_config" ]; then
    say "  no raspi-config here: turning I2C on in $boot_config itself (and i2c-dev in /etc/modules)"
    change_config "dtparam=i2c_arm=on" "I2C was turned on" || true
    if ! grep -qx "i2c-dev" "$root/etc/modules" 2>/dev/null; then
      if [ "$dry" = 1 ]; then say "  would add i2c-dev to /etc/modules"; else echo i2c-dev >> "$root/etc/modules"; fi
    fi
  fi
else
  say "  left as they are: turn them on later with 'sudo raspi-config nonint do_spi 0' and 'do_i2c 0'"
fi

# -- 4. the Inky overlay --------------------------------------------------------------------------
step "4. dtoverlay=spi0-0cs (GPIO8 for the Inky, not the SPI chip select)"
if [ -z "$boot_config" ]; then
  say "  no config.txt under $root/boot/firmware or $root/boot: add 'dtoverlay=spi0-0cs' under [all] by hand"
elif change_config "dtoverlay=spi0-0cs" "dtoverlay=spi0-0cs was added to config.txt"; then
  :
else
  say "  $boot_config already has dtoverlay=spi0-0cs"
  if [ -e "$root/dev/spidev0.1" ] || grep -q "^Tableside: dtoverlay" "$root/run/reboot-required" 2>/dev/null; then
    need_reboot "dtoverlay=spi0-0cs is in config.txt and is not active yet"
  fi
fi

# -- 5. groups and power-off ----------------------------------------------------------------------
step "5. User $user in the gpio, spi, i2c and bluetooth groups; allowed to power off"
need_groups=()
for g in gpio spi i2c bluetooth; do  # bluetooth: BlueZ's D-Bus policy lets that group use it (smart dice)
  members=$(awk -F: -v g="$g" '$1==g {print $4}' "$group_file" 2>/dev/null || true)
  if ! grep -q "^$g:" "$group_file" 2>/dev/null; then
    say "  no group $g on this system (is this Raspberry Pi OS?)"
  elif [[ ",$members," == *",$user,"* ]]; then
    say "  already in $g"
  else
    need_groups+=("$g")
  fi
done
if [ ${#need_groups[@]} -gt 0 ]; then
  run usermod -aG "$(IFS=,; printf '%s' "${need_groups[*]}")" "$user"
  say "  ($user gets the groups at the next login; the service has them at once)"
fi
put_file "$root/etc/polkit-1/rules.d/50-tableside-poweroff.rules" 0644 <<EOF || true
// Written by Tableside's systemd/install.sh: the service user may switch the Pi off or reboot
// it (the A+D shutdown chord on the table), as a person at the console may.
polkit.addRule(function(action, subject) {
    if (subject.user == "$user" &&
        (action.id == "org.freedesktop.login1.power-off" ||
         action.id == "org.freedesktop.login1.power-off-multiple-sessions" ||
         action.id == "org.freedesktop.login1.reboot" ||
         action.id == "org.freedesktop.login1.reboot-multiple-sessions")) {
        return polkit.Result.YES;
    }
});
EOF

# -- 6. config file -------------------------------------------------------------------------------
step "6. /etc/tableside/tableside.toml"
config="$root/etc/tableside/tableside.toml"
if [ -f "$config" ]; then
  say "  $config exists: kept as it is (the template is $repo/systemd/tableside.toml)"
else
  sed -e "s|^# port = 8080 |port = $port      |" "$repo/systemd/tableside.toml" | put_file "$config" 0644 || true
fi
# The phone's Settings tab (#32) rewrites this file as the service's user (a temporary file beside it, then a
# rename, its comments kept): the folder and the file are that user's, and the unit lets it write only there.
run chown "$user:$primary_group" "$root/etc/tableside" "$config"

# -- 7. the service and the hostname ----------------------------------------------------------------
step "7. The systemd unit"
unit="$root/etc/systemd/system/tableside.service"
unit_changed=0
if sed -e "s|@USER@|$user|g" -e "s|@GROUP@|$primary_group|g" -e "s|@VENV@|$venv|g" -e "s|@DATA@|$data|g" \
     -e "s|@REPO@|$repo|g" "$repo/systemd/tableside.service" | put_file "$unit" 0644; then
  unit_changed=1
fi
if [ -d "$root/run/systemd/system" ]; then
  if [ "$unit_changed" = 1 ]; then run systemctl daemon-reload; fi
  run systemctl enable tableside.service
  run systemctl restart tableside.service
else
  say "  systemd is not running here (a chroot, an image being prepared): enabled for the next boot, not started"
  run systemctl --root=/ enable tableside.service
fi

current_hostname=$(cat "$root/etc/hostname" 2>/dev/null || hostname)
if [ -z "$new_hostname" ] && [ "$current_hostname" != tableside ] && [ "$assume_yes" = 0 ] && [ -t 0 ] && [ "$dry" = 0 ]; then
  if ask "Call this Pi 'tableside', so phones can open http://tableside.local:$port/ ?"; then new_hostname=tableside; fi
fi
if [ -n "$new_hostname" ] && [ "$new_hostname" != "$current_hostname" ]; then
  step "Hostname $current_hostname -> $new_hostname"
  run raspi-config nonint do_hostname "$new_hostname"
  need_reboot "the hostname changed to $new_hostname"
  current_hostname=$new_hostname
fi

# -- 8. what now ----------------------------------------------------------------------------------
step "Done"
if grep -q "^127\.0\.1\.1" "$root/etc/hosts" 2>/dev/null; then
  say "  (this Pi's name maps to 127.0.1.1 in /etc/hosts, as Pi OS ships it: Tableside prints and shows"
  say "   its real Wi-Fi address instead, and http://$current_hostname.local:$port/ works through Avahi)"
fi
if [ "$dry" = 0 ] && [ -z "$root" ]; then
  lan=$(hostname -I 2>/dev/null | tr ' ' '\n' | grep -v '^127\.' | grep -v ':' | head -n1 || true)
  [ -n "$lan" ] && say "  Phones on the same Wi-Fi: http://$lan:$port/"
fi
say "  Phones on the same Wi-Fi: http://$current_hostname.local:$port/   (the join code is on the e-paper)"
if [ ${#reboot_reasons[@]} -gt 0 ]; then
  say ""
  say "  REBOOT NEEDED before the display works: $(IFS=';'; printf '%s' "${reboot_reasons[*]}" | sed 's/;/; /g')."
  say "  Run: sudo reboot      Then check with: $venv/bin/tableside doctor"
  if [ "$dry" = 1 ]; then
    say "  would note it in /run/reboot-required (tableside doctor reads it)"
  fi
else
  say "  No reboot needed. Check with: $venv/bin/tableside doctor"
fi
