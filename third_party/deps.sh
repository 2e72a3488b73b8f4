#!/usr/bin/env bash
# Installs every Debian 12 package Paperdoll needs to build, test and run.
# Idempotent: packages already present are skipped, so a second run does nothing.
# Run as root, or as a user with sudo.
set -euo pipefail

packages=(
  # build
  build-essential cmake ninja-build pkg-config clang
  # clang's sanitizer and libFuzzer runtimes (the fuzz preset); only a recommendation of clang's
  libclang-rt-14-dev
  # engine and editor
  libsdl2-dev libgl-dev libegl-dev python3-glad libtinyxml2-dev libimgui-dev libstb-dev nlohmann-json3-dev libpng-dev
  # the editor's and HUD's glyphs beyond Latin-1: fontconfig finds them in the machine's fonts
  libfontconfig-dev fonts-dejavu-core
  # tests: Catch2, a virtual display with Mesa's software GL for the windowed tests
  catch2 xvfb xauth libgl1-mesa-dri
  # benchmark peer only (tests/bench); never linked by the product
  libbox2d-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "deps.sh: all ${#packages[@]} packages already installed"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "deps.sh: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi

echo "deps.sh: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
