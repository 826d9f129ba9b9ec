#!/usr/bin/env bash
# Build the Linux bundle: dist/desk18xx-<version>-linux-<arch>.tar.gz
#
#   bash installer/build_linux.sh
#
# Uses the project's .venv (made by scripts/setup.sh when missing) and installs
# PyInstaller into it if needed; DESK18XX_BUILD_PYTHON picks another Python
# that has desk18xx's dependencies. Output: build/ (scratch) and dist/.
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

# The version of this checkout (not of whatever desk18xx the Python has installed).
version="$("$py" -c 'import sys; sys.path.insert(0, sys.argv[1]); import desk18xx; print(desk18xx.__version__)' "$root")"
name="desk18xx-$version-linux-$(uname -m)"

export QT_QPA_PLATFORM=offscreen
"$py" -m PyInstaller --noconfirm --clean --log-level WARN \
    --distpath "$root/dist" --workpath "$root/build" installer/desk18xx.spec

stage="$root/dist/$name"
rm -rf "$stage" "$stage.tar.gz"
mv "$root/dist/desk18xx" "$stage"
# Python's own libraries may carry debug symbols (pyenv: libpython 23 MB -> 5 MB).
# Only these: stripping the wheels' patched libraries (numpy.libs) breaks them.
if command -v strip >/dev/null; then
    strip --strip-debug "$stage"/_internal/libpython3*.so* \
        "$stage"/_internal/python3*/lib-dynload/*.so 2>/dev/null || true
fi
install -m 755 installer/linux/install.sh installer/linux/uninstall.sh "$stage/"
install -d "$stage/share"
install -m 644 installer/linux/desk18xx.desktop installer/linux/desk18xx-mime.xml "$stage/share/"
install -m 644 installer/linux/README.txt "$stage/"

tar -C "$root/dist" --owner=0 --group=0 -czf "$stage.tar.gz" "$name"
echo "$stage.tar.gz"
