"""number_glyphs.py - renames every glyph of a CFF font subset after its own index, to save bytes.

    python3 number_glyphs.py in.otf out.otf

Run by src/app/CMakeLists.txt after pyftsubset, with the Python that runs pyftsubset (it has
fontTools). A CFF font stores each glyph's name: the charset gives every glyph a string id (SID),
and every name that is not one of CFF's 391 standard strings is spelled out in the font's string
table ("uni0041", "uni03B1", ...). stb_truetype finds glyphs through the cmap and never reads a
name, so the names are free to choose. Glyph i is named by the standard string with SID i (and
"g<i>" past the 391st), so the charset is one range of SIDs and the string table holds no glyph
names: about 3 KB gzip less for the two subsets of Inter. Outlines, advance widths and the cmap
keep their meaning; the check at the end reads the result back and compares them glyph by glyph.
"""

import sys

from fontTools.cffLib import cffStandardStrings
from fontTools.ttLib import TTFont


def outlines_by_codepoint(font):
    """{code point: (charstring bytes, advance width)} through the font's cmap."""
    charstrings = font["CFF "].cff.topDictIndex[0].CharStrings
    metrics = font["hmtx"].metrics
    result = {}
    for codepoint, name in font.getBestCmap().items():
        charstring = charstrings[name]
        charstring.compile()
        result[codepoint] = (charstring.bytecode, metrics[name][0])
    return result


def number_glyphs(font):
    """Renames glyph i after SID i in the CFF, the cmap and hmtx (.notdef is SID 0 and stays)."""
    for tag in font.keys():
        if tag != "GlyphOrder":
            font[tag]  # read every table under the old names before any name changes
    old = font.getGlyphOrder()
    new = [cffStandardStrings[i] if i < len(cffStandardStrings) else f"g{i}" for i in range(len(old))]
    if old[0] != ".notdef":  # SID 0, cffStandardStrings[0], is .notdef
        sys.exit(f"number_glyphs: glyph 0 is {old[0]!r}, not .notdef")
    rename = dict(zip(old, new))
    top = font["CFF "].cff.topDictIndex[0]
    top.CharStrings.charStrings = {rename[k]: v for k, v in top.CharStrings.charStrings.items()}
    top.charset = new
    for table in font["cmap"].tables:
        table.cmap = {cp: rename[name] for cp, name in table.cmap.items()}
    font["hmtx"].metrics = {rename[k]: v for k, v in font["hmtx"].metrics.items()}
    font.setGlyphOrder(new)


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: number_glyphs.py in.otf out.otf")
    source, target = argv[1], argv[2]
    font = TTFont(source, recalcTimestamp=False)  # same bytes for the same input
    if "CFF " not in font:
        sys.exit(f"number_glyphs: {source} has no CFF table")
    before = outlines_by_codepoint(TTFont(source))
    number_glyphs(font)
    font.save(target)
    after = outlines_by_codepoint(TTFont(target))
    if before != after:
        changed = sorted(cp for cp in before.keys() | after.keys() if before.get(cp) != after.get(cp))
        sys.exit(f"number_glyphs: {len(changed)} code points changed, first U+{changed[0]:04X}")
    print(f"number_glyphs: {target}: {len(font.getGlyphOrder())} glyphs, {len(after)} code points")


if __name__ == "__main__":
    main(sys.argv)
