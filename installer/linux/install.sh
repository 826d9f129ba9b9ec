#!/bin/sh
# Install desk18xx for you alone (no root needed): the program goes to
# ~/.local/opt/desk18xx, a command to ~/.local/bin/desk18xx, and the menu entry,
# the icon and the save-file type (*.d18xx) to ~/.local/share. Run it from the
# unpacked folder:   ./install.sh
# Undo with ~/.local/opt/desk18xx/uninstall.sh (your games and settings stay).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
data="${XDG_DATA_HOME:-$HOME/.local/share}"
prefix="${DESK18XX_PREFIX:-$HOME/.local/opt/desk18xx}"
bindir="${DESK18XX_BINDIR:-$HOME/.local/bin}"
icons="$here/_internal/resources/icons"

if [ ! -x "$here/desk18xx" ] || [ ! -d "$icons" ]; then
    echo "install.sh: run me from the unpacked desk18xx folder" >&2
    exit 1
fi

# The program itself: a copy, so the downloaded folder can be deleted.
if [ "$here" != "$prefix" ]; then
    if [ -e "$prefix" ] && [ ! -x "$prefix/desk18xx" ]; then
        echo "install.sh: $prefix exists and is not desk18xx; not touching it" >&2
        exit 1
    fi
    rm -rf "$prefix"
    mkdir -p "$(dirname "$prefix")"
    cp -R "$here" "$prefix"
fi
mkdir -p "$bindir"
ln -sf "$prefix/desk18xx" "$bindir/desk18xx"

# Menu entry, with the program's absolute path filled in.
mkdir -p "$data/applications"
sed -e "s|@EXEC@|\"$prefix/desk18xx\"|" -e "s|@TRYEXEC@|$prefix/desk18xx|" \
    "$here/share/desk18xx.desktop" > "$data/applications/desk18xx.desktop"

# Icons: the app and its save files, every size.
for size in 16 24 32 48 64 128 256 512; do
    dir="$data/icons/hicolor/${size}x${size}"
    mkdir -p "$dir/apps" "$dir/mimetypes"
    cp "$icons/desk18xx-$size.png" "$dir/apps/desk18xx.png"
    cp "$icons/desk18xx-$size.png" "$dir/mimetypes/application-x-desk18xx-save.png"
done

# The save-file type, opened by desk18xx on a double click.
mkdir -p "$data/mime/packages"
cp "$here/share/desk18xx-mime.xml" "$data/mime/packages/desk18xx.xml"

if command -v update-mime-database >/dev/null 2>&1; then
    update-mime-database "$data/mime" >/dev/null 2>&1 || true
fi
if command -v update-desktop-database >/dev/null 2>&1; then
    update-desktop-database "$data/applications" >/dev/null 2>&1 || true
fi
if command -v gtk-update-icon-cache >/dev/null 2>&1; then
    gtk-update-icon-cache -q -t -f "$data/icons/hicolor" >/dev/null 2>&1 || true
fi
if command -v xdg-mime >/dev/null 2>&1; then
    xdg-mime default desk18xx.desktop application/x-desk18xx-save >/dev/null 2>&1 || true
fi

echo "desk18xx is installed: find it in your menu, or run $bindir/desk18xx"
case ":$PATH:" in
    *":$bindir:"*) ;;
    *) echo "($bindir is not on your PATH; the menu entry works regardless)" ;;
esac
