/* inflate.js - gunzip in plain JavaScript, for the one case that needs it: a page opened from
 * file:// in a browser without DecompressionStream (before Chromium 80, Firefox 113, Safari 16.4).
 * NAME.wasm.js holds the wasm gzip-compressed (then base64), which web/js/loader.js unpacks with
 * the browser's DecompressionStream; only where that is missing does it load this file.
 * The decoder follows RFC 1951 the way zlib's puff.c does (canonical Huffman codes decoded bit by
 * bit: short and slow, about 0.1 s for the canvas's wasm); the gzip wrapper (RFC 1952) is checked:
 * header, CRC-32 and length.
 *   AttentionInflate.gunzip(Uint8Array) -> Uint8Array   throws Error with a readable message
 * Node can load it too (module.exports), which is how tests/web/inflate.test.mjs checks it. */
(function (root) {
  'use strict';

  // lengths 257..285 and distances 0..29: base and extra bits (RFC 1951, 3.2.5)
  var LEN_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99,
    115, 131, 163, 195, 227, 258];
  var LEN_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
  var DIST_BASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025,
    1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577];
  var DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12,
    12, 13, 13];
  // the order in which a dynamic block sends its code-length code's lengths (3.2.7)
  var CL_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

  function fail(what) { throw new Error('the compressed wasm is damaged: ' + what); }

  // A canonical Huffman code from its code lengths: how many codes of each length, and the
  // symbols in code order.
  function huffman(lengths, n) {
    var count = new Uint16Array(16), offset = new Uint16Array(16), symbol = new Uint16Array(n), i;
    for (i = 0; i < n; i++) count[lengths[i]]++;
    count[0] = 0;
    for (i = 1; i < 15; i++) offset[i + 1] = offset[i] + count[i];
    for (i = 0; i < n; i++) if (lengths[i]) symbol[offset[lengths[i]]++] = i;
    return { count: count, symbol: symbol };
  }

  function Reader(bytes, pos) { this.bytes = bytes; this.pos = pos; this.buf = 0; this.cnt = 0; }
  // the next n bits (n <= 16), least significant first
  Reader.prototype.bits = function (n) {
    while (this.cnt < n) {
      if (this.pos >= this.bytes.length) fail('it ends in the middle');
      this.buf |= this.bytes[this.pos++] << this.cnt;
      this.cnt += 8;
    }
    var v = this.buf & ((1 << n) - 1);
    this.buf >>>= n;
    this.cnt -= n;
    return v;
  };
  // one symbol of code h: codes are read most significant bit first, one bit at a time
  Reader.prototype.decode = function (h) {
    var code = 0, first = 0, index = 0;
    for (var len = 1; len < 16; len++) {
      code |= this.bits(1);
      var count = h.count[len];
      if (code - first < count) return h.symbol[index + code - first];
      index += count;
      first = (first + count) << 1;
      code <<= 1;
    }
    return fail('a code that no table holds');
  };

  var fixed = null;  // the fixed codes of block type 1, built once when first needed
  function fixedCodes() {
    if (fixed) return fixed;
    var l = new Uint8Array(288), i;
    for (i = 0; i < 144; i++) l[i] = 8;
    for (; i < 256; i++) l[i] = 9;
    for (; i < 280; i++) l[i] = 7;
    for (; i < 288; i++) l[i] = 8;
    var d = new Uint8Array(30).fill(5);
    fixed = { len: huffman(l, 288), dist: huffman(d, 30) };
    return fixed;
  }

  function dynamicCodes(r) {
    var nlen = r.bits(5) + 257, ndist = r.bits(5) + 1, ncode = r.bits(4) + 4, i;
    if (nlen > 286 || ndist > 30) fail('too many codes');
    var lengths = new Uint8Array(320);
    for (i = 0; i < ncode; i++) lengths[CL_ORDER[i]] = r.bits(3);
    var lencode = huffman(lengths, 19);
    lengths = new Uint8Array(320);
    for (i = 0; i < nlen + ndist;) {
      var sym = r.decode(lencode), repeat, value = 0;
      if (sym < 16) { lengths[i++] = sym; continue; }
      if (sym === 16) {
        if (i === 0) fail('a repeat with nothing before it');
        value = lengths[i - 1];
        repeat = 3 + r.bits(2);
      } else if (sym === 17) repeat = 3 + r.bits(3);
      else repeat = 11 + r.bits(7);
      if (i + repeat > nlen + ndist) fail('code lengths past the end');
      while (repeat--) lengths[i++] = value;
    }
    return { len: huffman(lengths.subarray(0, nlen), nlen), dist: huffman(lengths.subarray(nlen), ndist) };
  }

  // raw deflate data from bytes[pos] into out (its size known from the gzip trailer)
  function inflate(bytes, pos, out) {
    var r = new Reader(bytes, pos), o = 0, last;
    do {
      last = r.bits(1);
      var type = r.bits(2);
      if (type === 0) {  // stored: the rest of this byte is dropped, then LEN, ~LEN, the bytes
        r.buf = 0;
        r.cnt = 0;
        var p = r.pos, n = bytes[p] | (bytes[p + 1] << 8);
        if ((n ^ (bytes[p + 2] | (bytes[p + 3] << 8))) !== 0xffff) fail('a stored block\'s length');
        if (p + 4 + n > bytes.length || o + n > out.length) fail('a stored block past the end');
        out.set(bytes.subarray(p + 4, p + 4 + n), o);
        o += n;
        r.pos = p + 4 + n;
        continue;
      }
      if (type === 3) fail('a block of unknown type');
      var codes = type === 1 ? fixedCodes() : dynamicCodes(r);
      for (;;) {
        var sym = r.decode(codes.len);
        if (sym < 256) {
          if (o >= out.length) fail('more bytes than its length says');
          out[o++] = sym;
        } else if (sym === 256) {
          break;
        } else {
          sym -= 257;
          if (sym >= 29) fail('a length code out of range');
          var len = LEN_BASE[sym] + r.bits(LEN_EXTRA[sym]);
          var ds = r.decode(codes.dist);
          if (ds >= 30) fail('a distance code out of range');
          var dist = DIST_BASE[ds] + r.bits(DIST_EXTRA[ds]);
          if (dist > o) fail('a distance before the start');
          if (o + len > out.length) fail('more bytes than its length says');
          for (; len > 0; len--, o++) out[o] = out[o - dist];
        }
      }
    } while (!last);
    if (o !== out.length) fail('fewer bytes than its length says');
    return out;
  }

  var crcTable = null;
  function crc32(bytes) {
    var c, i, k;
    if (!crcTable) {
      crcTable = new Int32Array(256);
      for (i = 0; i < 256; i++) {
        for (c = i, k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
        crcTable[i] = c;
      }
    }
    for (c = -1, i = 0; i < bytes.length; i++) c = crcTable[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
    return (c ^ -1) >>> 0;
  }

  // a gzip member (RFC 1952): header (skipping the optional fields), deflate data, CRC-32, size
  function gunzip(bytes) {
    if (bytes.length < 18 || bytes[0] !== 0x1f || bytes[1] !== 0x8b || bytes[2] !== 8) fail('not gzip');
    var flags = bytes[3], pos = 10, end = bytes.length;
    if (flags & 4) pos += 2 + (bytes[pos] | (bytes[pos + 1] << 8));
    if (flags & 8) while (pos < end && bytes[pos++] !== 0);
    if (flags & 16) while (pos < end && bytes[pos++] !== 0);
    if (flags & 2) pos += 2;
    function le32(p) { return (bytes[p] | (bytes[p + 1] << 8) | (bytes[p + 2] << 16) | (bytes[p + 3] << 24)) >>> 0; }
    var out = inflate(bytes, pos, new Uint8Array(le32(end - 4)));
    if (crc32(out) !== le32(end - 8)) fail('its CRC-32 does not match');
    return out;
  }

  var api = { gunzip: gunzip };
  if (typeof module === 'object' && module.exports) module.exports = api;
  else root.AttentionInflate = api;
})(this);
