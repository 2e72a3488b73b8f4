#!/usr/bin/env python3
"""Writes the small PNGs the fuzz targets start from, so every byte of them is ours.

    python3 tests/fuzz/make_png_corpus.py

corpus/png/ seeds fuzz_png (paper::decodePng) with one file per way a PNG can be laid out:
RGB, RGBA, palette with transparency, grey at 1 and 16 bits, RGBA at 16 bits (untagged,
sRGB and linear), grey with alpha, Adam7 interlaced, and two broken ones (cut short; a damaged checksum). art/ holds the images the
sprite rigs in corpus/rig/ name (fuzz_rig loads rigs as if they were files in art/).

PNGs are written by hand (zlib and struct from the standard library): stb_image_write,
used by the tests, writes only 8-bit non-interlaced files without a palette.
"""

import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))

# Colour types.
GREY, RGB, PALETTE, GREY_ALPHA, RGBA = 0, 2, 3, 4, 6
CHANNELS = {GREY: 1, RGB: 3, PALETTE: 1, GREY_ALPHA: 2, RGBA: 4}

# Adam7: (first x, first y, step x, step y) of each pass.
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def pack_row(samples, depth):
    """One row of samples (ints) at a bit depth, without its filter byte."""
    if depth == 8:
        return bytes(samples)
    if depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    out, bits, used = bytearray(), 0, 0
    for s in samples:
        bits = (bits << depth) | s
        used += depth
        if used == 8:
            out.append(bits)
            bits, used = 0, 0
    if used:
        out.append(bits << (8 - used))
    return bytes(out)


def png(width, height, colour, pixels, depth=8, interlace=False, extra=()):
    """pixels[y][x] is a tuple of samples (one per channel)."""
    def rows(xs, ys):
        data = b""
        for y in ys:
            samples = [s for x in xs for s in pixels[y][x]]
            # Filter 0 (none) on every row keeps the writer simple; the fuzzer mutates
            # the filter bytes itself.
            data += b"\x00" + pack_row(samples, depth)
        return data

    if interlace:
        raw = b""
        for x0, y0, dx, dy in ADAM7:
            xs, ys = range(x0, width, dx), range(y0, height, dy)
            if len(xs) and len(ys):
                raw += rows(xs, ys)
    else:
        raw = rows(range(width), range(height))
    header = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 1 if interlace else 0)
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
    for kind, data in extra:
        out += chunk(kind, data)
    return out + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def gradient(width, height, channels):
    return [[tuple((17 * x + 29 * y + 53 * c) % 256 for c in range(channels)) for x in range(width)]
            for y in range(height)]


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def main():
    corpus = os.path.join(HERE, "corpus", "png")
    write(os.path.join(corpus, "rgb_8x6.png"), png(8, 6, RGB, gradient(8, 6, 3)))
    write(os.path.join(corpus, "rgba_5x4.png"), png(5, 4, RGBA, gradient(5, 4, 4)))
    palette = bytes([255, 0, 0, 0, 255, 0, 0, 0, 255])  # red, green, blue
    indices = [[((x + y) % 3,) for x in range(7)] for y in range(3)]
    write(os.path.join(corpus, "palette_7x3.png"),
          png(7, 3, PALETTE, indices, extra=[(b"PLTE", palette), (b"tRNS", bytes([255, 128, 0]))]))
    write(os.path.join(corpus, "grey1_9x2.png"), png(9, 2, GREY, [[((x + y) % 2,) for x in range(9)] for y in range(2)], depth=1))
    write(os.path.join(corpus, "grey16_3x3.png"),
          png(3, 3, GREY, [[(4000 * (x + 3 * y),) for x in range(3)] for y in range(3)], depth=16))
    write(os.path.join(corpus, "grey_alpha_4x4.png"), png(4, 4, GREY_ALPHA, gradient(4, 4, 2)))
    # 16 bits a channel, each sample an 8-bit value v written as v * 257: untagged, as art
    # tools export it; tagged sRGB; and tagged as linear light (gAMA 1.0).
    deep = [[tuple(257 * v for v in px) for px in row] for row in gradient(4, 2, 4)]
    write(os.path.join(corpus, "rgba16_4x2.png"), png(4, 2, RGBA, deep, depth=16))
    write(os.path.join(corpus, "rgba16_srgb_4x2.png"), png(4, 2, RGBA, deep, depth=16, extra=[(b"sRGB", bytes([0]))]))
    write(os.path.join(corpus, "rgba16_linear_4x2.png"),
          png(4, 2, RGBA, deep, depth=16, extra=[(b"gAMA", struct.pack(">I", 100000))]))
    # Its sRGB chunk after a suggested palette, where libpng ignores it as out of place.
    write(os.path.join(corpus, "rgba16_late_srgb_4x2.png"),
          png(4, 2, RGBA, deep, depth=16, extra=[(b"PLTE", bytes([0, 0, 0])), (b"sRGB", bytes([0]))]))
    write(os.path.join(corpus, "interlaced_rgb_11x9.png"), png(11, 9, RGB, gradient(11, 9, 3), interlace=True))
    whole = png(8, 8, RGBA, gradient(8, 8, 4))
    write(os.path.join(corpus, "truncated_rgba.png"), whole[: len(whole) // 2])
    damaged = bytearray(whole)
    damaged[45] ^= 0xFF  # inside the IDAT data: its CRC no longer matches
    write(os.path.join(corpus, "bad_crc_rgba.png"), bytes(damaged))

    # The sprite rigs' art: an atlas of flat coloured parts and a small face.
    atlas = [[(200, 60, 40, 255) if x < 16 else (40, 90, 200, 255) if y < 8 else (0, 0, 0, 0) for x in range(32)]
             for y in range(16)]
    write(os.path.join(HERE, "art", "atlas.png"), png(32, 16, RGBA, atlas))
    write(os.path.join(HERE, "art", "face.png"), png(6, 5, GREY, gradient(6, 5, 1)))


if __name__ == "__main__":
    main()
