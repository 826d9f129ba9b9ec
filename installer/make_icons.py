"""Draw the desk18xx icon into ``resources/icons/`` (PNG sizes, .ico, .icns).

The icon is a yellow 18xx tile: a flat-topped hex with a gentle track curve
and a city holding a red station token.  Qt's QPainter draws each size
(offscreen); Pillow, a build-time tool only, packs the Windows .ico and the
macOS .icns.  Run from the repository root::

    QT_QPA_PLATFORM=offscreen .venv/bin/python installer/make_icons.py

and commit what it writes.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path

from PIL import Image
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QGuiApplication, QImage, QPainter, QPen, QPolygonF

#: PNG sizes written to resources/icons/desk18xx-<N>.png (Linux hicolor, Qt)
PNG_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
ICNS_SIZES = (16, 32, 64, 128, 256, 512, 1024)

# The 18xx palette (18xx.games tile and track colours).
YELLOW = QColor("#fde900")
OUTLINE = QColor("#3a3a3a")
TRACK = QColor("#000000")
CITY = QColor("#ffffff")
TOKEN = QColor("#d81e3e")


def _hexagon(cx: float, cy: float, radius: float) -> QPolygonF:
    corners = [math.radians(a) for a in range(0, 360, 60)]
    return QPolygonF(
        [QPointF(cx + radius * math.cos(a), cy + radius * math.sin(a)) for a in corners]
    )


def draw(size: int) -> QImage:
    """The icon at ``size`` x ``size`` pixels, drawn for that size (not scaled)."""
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    small = size <= 32
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    border = max(1.0, size * (0.045 if small else 0.035))
    radius = size / 2 - border / 2 - size * 0.01
    h = radius * math.sqrt(3) / 2
    cx = cy = size / 2
    hexagon = _hexagon(cx, cy, radius)

    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QBrush(YELLOW))
    painter.drawPolygon(hexagon)

    # Gentle curve from the bottom edge to the upper-right edge: its centre is
    # where the two edges' lines meet, 1.5 radii from the hex centre.
    painter.save()
    painter.setClipRect(QRectF(0, 0, size, size))
    track = radius * (0.26 if small else 0.17)
    painter.setPen(QPen(TRACK, track, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    arc_r = 1.5 * radius
    centre = QPointF(cx + 1.5 * radius, cy + h)
    box = QRectF(centre.x() - arc_r, centre.y() - arc_r, 2 * arc_r, 2 * arc_r)
    painter.drawArc(box, 120 * 16, 60 * 16)
    painter.restore()

    if not small:
        # A city on the curve's midpoint with a red station token in it.
        mid = math.radians(150)
        city = QPointF(centre.x() + arc_r * math.cos(mid), centre.y() - arc_r * math.sin(mid))
        city_r = radius * 0.3
        painter.setPen(QPen(TRACK, radius * 0.05))
        painter.setBrush(QBrush(CITY))
        painter.drawEllipse(city, city_r, city_r)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QBrush(TOKEN))
        token_r = city_r * 0.72
        painter.drawEllipse(city, token_r, token_r)

    pen = QPen(OUTLINE, border)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    painter.setPen(pen)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawPolygon(hexagon)
    painter.end()
    return image


def to_pillow(image: QImage) -> Image.Image:
    """Copy the pixels into a Pillow image (straight, not premultiplied, alpha)."""
    rgba = image.convertToFormat(QImage.Format.Format_RGBA8888)
    size = (rgba.width(), rgba.height())
    data = bytes(rgba.constBits())
    return Image.frombytes("RGBA", size, data, "raw", "RGBA", rgba.bytesPerLine())


def write_icons(out: Path) -> list[Path]:
    """Write every PNG size, the .ico and the .icns into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    images = {size: to_pillow(draw(size)) for size in sorted({*PNG_SIZES, *ICNS_SIZES})}
    written = []
    for size in PNG_SIZES:
        path = out / f"desk18xx-{size}.png"
        images[size].save(path, optimize=True)
        written.append(path)
    ico = out / "desk18xx.ico"
    largest = images[max(ICO_SIZES)]
    largest.save(
        ico,
        sizes=[(s, s) for s in ICO_SIZES],
        append_images=[images[s] for s in ICO_SIZES if s != max(ICO_SIZES)],
    )
    written.append(ico)
    icns = out / "desk18xx.icns"
    images[max(ICNS_SIZES)].save(
        icns, append_images=[images[s] for s in ICNS_SIZES if s != max(ICNS_SIZES)]
    )
    written.append(icns)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    root = Path(__file__).resolve().parents[1]
    parser.add_argument("--out", type=Path, default=root / "resources" / "icons")
    options = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    app = QGuiApplication.instance() or QGuiApplication([sys.argv[0]])
    for path in write_icons(options.out):
        print(path)
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
