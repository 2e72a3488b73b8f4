#!/usr/bin/env python3
"""Draws the paper doll's cut-out parts into one atlas: content/art/paper_doll.png.

Run from anywhere: `python3 content/art/make_paper_doll.py` (standard library only). Change
a part below and run it again; content/rigs/paper_doll.rig.xml cuts the parts out by the
rectangles printed at the end (keep them in step if a part moves or changes size).

Every part is drawn upright, as the doll stands facing right: the top of a part is up, its
front (face, toes, thumb) to the right. Scale: 4 pixels to the centimetre. Shapes are filled
with 4 x 4 samples a pixel, so edges are smooth and the rest of the atlas stays clear.
"""
import math
import os
import struct
import zlib

PX_PER_CM = 4
WIDTH, HEIGHT = 512, 256
SAMPLES = 4  # per side of a pixel

# Colours (r, g, b).
SKIN = (238, 196, 160)
SKIN_SHADE = (214, 166, 130)
HAIR = (92, 58, 40)
SHIRT = (196, 62, 52)
SHIRT_DARK = (150, 40, 36)
TROUSERS = (52, 76, 122)
TROUSERS_DARK = (36, 54, 92)
SHOE = (40, 34, 32)
OUTLINE = (44, 32, 28)
EYE = (30, 24, 22)
WHITE = (250, 248, 240)


# ---- shapes: inside(x, y) tests in a part's own pixels (x right, y down) ------------------

def rounded_rect(x0, y0, x1, y1, r):
    def inside(x, y):
        cx = min(max(x, x0 + r), x1 - r)
        cy = min(max(y, y0 + r), y1 - r)
        return (x - cx) ** 2 + (y - cy) ** 2 <= r * r and x0 <= x <= x1 and y0 <= y <= y1
    return inside


def ellipse(cx, cy, rx, ry):
    return lambda x, y: ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1.0


def polygon(points):
    def inside(x, y):
        hit = False
        j = len(points) - 1
        for i, (xi, yi) in enumerate(points):
            xj, yj = points[j]
            if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
                hit = not hit
            j = i
        return hit
    return inside


def capsule(ax, ay, bx, by, r):
    def inside(x, y):
        dx, dy = bx - ax, by - ay
        t = max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)))
        px, py = ax + t * dx - x, ay + t * dy - y
        return px * px + py * py <= r * r
    return inside


# ---- parts: (name, width, height, layers); a layer is (colour, inside) ---------------------

def head():
    w, h = 120, 124
    def skull(g):
        return ellipse(58, 66, 50 - g, 54 - g)
    return w, h, [
        (OUTLINE, skull(-2.5)),
        (OUTLINE, ellipse(104, 74, 11.5, 13.5)),                          # the nose's outline,
        (SKIN, skull(0)),                                                 # showing only outside
        (SKIN, ellipse(104, 74, 9, 11)),                                  # the skull
        (HAIR, polygon([(8, 70), (10, 34), (30, 12), (62, 8), (92, 16), (108, 34), (92, 32),
                        (70, 30), (50, 40), (40, 62), (30, 86), (12, 96)])),
        (WHITE, ellipse(84, 56, 7, 6)),
        (EYE, ellipse(87, 57, 3.5, 4)),
        (HAIR, capsule(74, 44, 94, 42, 2.2)),                             # brow
        (OUTLINE, capsule(84, 94, 98, 90, 1.8)),                          # mouth
        (SKIN_SHADE, ellipse(44, 70, 8, 11)),                             # ear
        (OUTLINE, capsule(40, 66, 46, 76, 1.2)),
    ]


def torso():
    w, h = 96, 240
    def body(g):
        return polygon([(14 - g, 24 - g), (30, 8 - g), (70, 8 - g), (84 + g, 26 - g),
                        (82 + g, 232 + g), (12 - g, 232 + g)])
    return w, h, [
        (OUTLINE, body(2.5)),
        (SHIRT, body(0)),
        (SHIRT_DARK, rounded_rect(12, 212, 82, 232, 3)),                  # waistband
        (WHITE, polygon([(52, 8), (70, 8), (62, 36)])),                   # collar
        (SHIRT_DARK, capsule(60, 44, 60, 200, 1.5)),                      # seam
        (WHITE, ellipse(66, 70, 3, 3)), (WHITE, ellipse(66, 110, 3, 3)), (WHITE, ellipse(66, 150, 3, 3)),
    ]


def upper_arm():
    w, h = 48, 140
    def sleeve(g):
        return rounded_rect(4 - g, 4 - g, 44 + g, 136 + g, 18 + g)
    return w, h, [(OUTLINE, sleeve(2.5)), (SHIRT, sleeve(0)), (SHIRT_DARK, rounded_rect(4, 122, 44, 136, 6))]


def forearm():
    w, h = 48, 156
    def arm(g):
        return rounded_rect(8 - g, 4 - g, 40 + g, 124 + g, 15 + g)
    def hand(g):
        return ellipse(24, 132, 16 + g, 20 + g)
    return w, h, [
        (OUTLINE, arm(2.5)), (OUTLINE, hand(2.5)), (OUTLINE, ellipse(40, 124, 7.5, 11.5)),
        (SKIN, arm(0)), (SKIN, hand(0)), (SKIN, ellipse(40, 124, 5, 9)),   # thumb
        (SKIN_SHADE, capsule(16, 140, 30, 146, 1.5)),
    ]


def thigh():
    w, h = 64, 220
    def leg(g):
        return rounded_rect(4 - g, 4 - g, 60 + g, 216 + g, 24 + g)
    return w, h, [(OUTLINE, leg(2.5)), (TROUSERS, leg(0)), (TROUSERS_DARK, capsule(40, 30, 40, 200, 1.5))]


def shin():
    w, h = 104, 212
    def leg(g):
        return rounded_rect(10 - g, 4 - g, 58 + g, 176 + g, 20 + g)
    def shoe(g):
        return polygon([(4 - g, 166 - g), (60 + g, 166 - g), (70, 176 - g), (96 + g, 186 - g),
                        (100 + g, 204 + g), (4 - g, 204 + g)])
    return w, h, [
        (OUTLINE, leg(2.5)), (OUTLINE, shoe(2.5)),
        (TROUSERS, leg(0)), (TROUSERS_DARK, rounded_rect(10, 150, 58, 166, 4)),
        (SHOE, shoe(0)), (WHITE, capsule(8, 198, 96, 198, 1.5)),           # sole's edge
    ]


PARTS = [("head", head), ("torso", torso), ("upper_arm", upper_arm), ("forearm", forearm),
         ("thigh", thigh), ("shin", shin)]


def pack(parts):
    """Places parts left to right in rows, 4 pixels apart: name -> (x, y, w, h)."""
    placed, x, y, row = {}, 2, 2, 0
    for name, (w, h, _) in parts:
        if x + w + 2 > WIDTH:
            x, y, row = 2, y + row + 4, 0
        placed[name] = (x, y, w, h)
        x, row = x + w + 4, max(row, h)
    return placed


def render():
    pixels = bytearray(WIDTH * HEIGHT * 4)
    built = [(name, make()) for name, make in PARTS]
    placed = pack([(name, part) for name, part in built])
    n = SAMPLES * SAMPLES
    offsets = [((i + 0.5) / SAMPLES, (j + 0.5) / SAMPLES) for j in range(SAMPLES) for i in range(SAMPLES)]
    for name, (w, h, layers) in built:
        ox, oy, _, _ = placed[name]
        for py in range(h):
            for px in range(w):
                # Straight-alpha "over" of each layer, per sample, then averaged.
                r = g = b = a = 0.0
                for sx, sy in offsets:
                    colour = None
                    for c, inside in layers:
                        if inside(px + sx, py + sy):
                            colour = c
                    if colour:
                        r, g, b, a = r + colour[0], g + colour[1], b + colour[2], a + 1
                if a == 0:
                    continue
                i = ((oy + py) * WIDTH + ox + px) * 4
                pixels[i:i + 4] = bytes((round(r / a), round(g / a), round(b / a), round(255 * a / n)))
    return pixels, placed


def write_png(path, pixels):
    rows = b"".join(b"\0" + bytes(pixels[y * WIDTH * 4:(y + 1) * WIDTH * 4]) for y in range(HEIGHT))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", WIDTH, HEIGHT, 8, 6, 0, 0, 0)  # 8-bit RGBA
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) +
                chunk(b"IEND", b""))


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    pixels, placed = render()
    out = os.path.join(here, "paper_doll.png")
    write_png(out, pixels)
    print(out)
    for name, (x, y, w, h) in placed.items():
        print(f'{name:10} rect="{x} {y} {w} {h}"  ({w / PX_PER_CM:g} x {h / PX_PER_CM:g} cm)')
