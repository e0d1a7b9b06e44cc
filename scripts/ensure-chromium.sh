#!/usr/bin/env bash
# Makes sure Debian's chromium is installed for the console's browser tests (driven by playwright-core,
# which never downloads a browser of its own): leaves an installed one alone, installs Debian's
# `chromium` package when it is missing. CHROMIUM_PATH names another binary to use instead.
set -euo pipefail

path="${CHROMIUM_PATH:-/usr/bin/chromium}"

if [ -x "$path" ]; then
  echo "chromium: $("$path" --version 2>/dev/null | head -n 1) at $path"
  exit 0
fi

if [ -n "${CHROMIUM_PATH:-}" ]; then
  echo "chromium: CHROMIUM_PATH is $CHROMIUM_PATH, but no executable is there; fix it, or unset it to use Debian's chromium." >&2
  exit 1
fi

echo "chromium: $path is missing; installing Debian's chromium package"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null

if [ -x "$path" ]; then
  echo "chromium: $("$path" --version 2>/dev/null | head -n 1) installed at $path"
  exit 0
fi
echo "chromium: the chromium package installed, but $path is not there; set CHROMIUM_PATH to its binary." >&2
exit 1
