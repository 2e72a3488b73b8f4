#!/usr/bin/env python3
"""Writes tests/fuzz/corpus/elf/: small 64-bit little-endian ELF files for fuzz_elf (the plugin
host's scan of a library's dynamic symbols for STB_GNU_UNIQUE bindings). Each has a section
table of a null section, a .dynsym and its .dynstr: one binds a symbol STB_GNU_UNIQUE, one only
global symbols, one is cut inside its section table."""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus", "elf")

STB_GLOBAL, STB_GNU_UNIQUE = 1, 10
STT_OBJECT, STT_FUNC = 1, 2
SHT_DYNSYM, SHT_STRTAB = 11, 3


def elf(symbols):
    """symbols: (name, binding, type) defined in section 1."""
    strings = b"\0" + b"".join(name.encode() + b"\0" for name, _, _ in symbols)
    entries = [struct.pack("<IBBHQQ", 0, 0, 0, 0, 0, 0)]  # the null symbol
    at = 1
    for name, binding, kind in symbols:
        entries.append(struct.pack("<IBBHQQ", at, (binding << 4) | kind, 0, 1, 0x1000, 4))
        at += len(name) + 1
    dynsym = b"".join(entries)
    header_size, section_size = 64, 64
    dynsym_at = header_size
    dynstr_at = dynsym_at + len(dynsym)
    sections_at = dynstr_at + len(strings)
    sections = [
        struct.pack("<IIQQQQIIQQ", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
        struct.pack("<IIQQQQIIQQ", 0, SHT_DYNSYM, 2, 0, dynsym_at, len(dynsym), 2, 1, 8, 24),
        struct.pack("<IIQQQQIIQQ", 0, SHT_STRTAB, 2, 0, dynstr_at, len(strings), 0, 0, 1, 0),
    ]
    ident = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8)
    header = ident + struct.pack("<HHIQQQIHHHHHH", 3, 62, 1, 0, 0, sections_at, 0, header_size, 0, 0, section_size,
                                 len(sections), 2)
    return header + dynsym + strings + b"".join(sections)


def main():
    os.makedirs(OUT, exist_ok=True)
    unique = elf([("paperGetPluginApi", STB_GLOBAL, STT_FUNC), ("_ZZN7Counter7createdEvE5count", STB_GNU_UNIQUE, STT_OBJECT)])
    plain = elf([("paperGetPluginApi", STB_GLOBAL, STT_FUNC)])
    for name, data in (("unique.so", unique), ("plain.so", plain), ("cut.so", unique[:len(unique) - 70])):
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
