#!/usr/bin/env bash
# Build the macOS app and disk image: dist/desk18xx-<version>-macos-<arch>.dmg
#
#   bash installer/build_macos.sh
#
# Uses the project's .venv (made by scripts/setup.sh when missing) and installs
# PyInstaller into it if needed. The app is not signed: the first time, open it
# with right-click > Open (or: xattr -dr com.apple.quarantine desk18xx.app).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

py="${DESK18XX_BUILD_PYTHON:-$root/.venv/bin/python}"
if [[ ! -x $py ]]; then
    bash scripts/setup.sh
fi
if ! "$py" -c 'import PyInstaller' 2>/dev/null; then
    "$py" -m pip install --quiet "pyinstaller>=6.10,<7"
fi
version="$("$py" -c 'import sys; sys.path.insert(0, sys.argv[1]); import desk18xx; print(desk18xx.__version__)' "$root")"

"$py" -m PyInstaller --noconfirm --clean --log-level WARN \
    --distpath "$root/dist" --workpath "$root/build" installer/desk18xx.spec

# The disk image: the app and a link to /Applications to drag it onto.
dmg="$root/dist/desk18xx-$version-macos-$(uname -m).dmg"
image="$root/build/dmg"
rm -rf "$dmg" "$image"
mkdir -p "$image"
ditto "$root/dist/desk18xx.app" "$image/desk18xx.app"  # keeps symlinks and signatures
ln -s /Applications "$image/Applications"
hdiutil create -volname "desk18xx $version" -srcfolder "$image" -ov -format UDZO "$dmg"
echo "$dmg"
