#!/bin/sh
# Remove what install.sh put in place. Your saved games and the app's settings
# and autosaves (~/.local/share/desk18xx) are left alone.
set -eu

data="${XDG_DATA_HOME:-$HOME/.local/share}"
prefix="${DESK18XX_PREFIX:-$HOME/.local/opt/desk18xx}"
bindir="${DESK18XX_BINDIR:-$HOME/.local/bin}"

rm -f "$data/applications/desk18xx.desktop"
rm -f "$data/mime/packages/desk18xx.xml"
for size in 16 24 32 48 64 128 256 512; do
    dir="$data/icons/hicolor/${size}x${size}"
    rm -f "$dir/apps/desk18xx.png" "$dir/mimetypes/application-x-desk18xx-save.png"
done
if [ -L "$bindir/desk18xx" ] && [ "$(readlink "$bindir/desk18xx")" = "$prefix/desk18xx" ]; then
    rm -f "$bindir/desk18xx"
fi

if command -v update-mime-database >/dev/null 2>&1 && [ -d "$data/mime" ]; then
    update-mime-database "$data/mime" >/dev/null 2>&1 || true
fi
if command -v update-desktop-database >/dev/null 2>&1 && [ -d "$data/applications" ]; then
    update-desktop-database "$data/applications" >/dev/null 2>&1 || true
fi
if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -d "$data/icons/hicolor" ]; then
    gtk-update-icon-cache -q -t -f "$data/icons/hicolor" >/dev/null 2>&1 || true
fi

# Last, the program (this script may be running from inside it).
if [ -x "$prefix/desk18xx" ] && [ -d "$prefix/_internal" ]; then
    rm -rf "$prefix"
fi
echo "desk18xx is uninstalled."
