#!/usr/bin/env bash
# Optional Pi set-up, the only step that needs root: SPI/I2C on, groups, the service.
# Usage: sudo systemd/install.sh [USER]   (default: the user who ran sudo)
set -euo pipefail
user=${1:-${SUDO_USER:-}}
if [ "$(id -u)" -ne 0 ] || [ -z "$user" ] || [ "$user" = root ]; then
  echo "run as: sudo systemd/install.sh [USER]  (the service runs as USER, never root)" >&2
  exit 2
fi
repo=$(cd "$(dirname "$0")/.." && pwd)
home=$(getent passwd "$user" | cut -d: -f6)
data="$home/.local/share/tableside"

if command -v raspi-config >/dev/null; then
  raspi-config nonint do_spi 0
  raspi-config nonint do_i2c 0
fi
config=/boot/firmware/config.txt
if [ -f "$config" ] && ! grep -q '^dtoverlay=spi0-0cs' "$config"; then
  echo 'dtoverlay=spi0-0cs' >> "$config"   # the Inky README asks for it on Bookworm
  echo "added dtoverlay=spi0-0cs to $config: reboot once after this"
fi
for g in gpio spi i2c; do getent group "$g" >/dev/null && usermod -aG "$g" "$user"; done

sudo -u "$user" bash -c "cd '$repo' && python3 -m venv .venv && .venv/bin/pip install -q -e ."
sudo -u "$user" mkdir -p "$data"
sed -e "s#@USER@#$user#g" -e "s#@REPO@#$repo#g" -e "s#@DATA@#$data#g" \
  "$repo/systemd/tableside.service" > /etc/systemd/system/tableside.service
systemctl daemon-reload
systemctl enable --now tableside.service
echo "tableside is running; check with: sudo -u $user $repo/.venv/bin/tableside doctor"
