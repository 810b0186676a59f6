// inflate.test.mjs - web/js/inflate.js (the gunzip a file:// page uses where the browser has no
// DecompressionStream) against Node's zlib: every block type, every level, the real wasm, and
// damaged input, which must give a readable error and never a wrong result.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { gzipSync, constants } from 'node:zlib';
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, dirname } from 'node:path';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { gunzip } = createRequire(import.meta.url)(join(ROOT, 'web', 'js', 'inflate.js'));

// a deterministic mix of text-like runs and noise, so that every code path (literals, short and
// long matches, far distances) is taken
function sample(n, seed) {
  const out = new Uint8Array(n);
  let x = seed >>> 0;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out[i] = i > 300 && (x >>> 28) < 9 ? out[i - 1 - ((x >>> 8) % 300)] : (x >>> 24) % ((x >>> 20) & 1 ? 256 : 20) + 97;
  }
  return out;
}

test('gunzip gives back what zlib compressed, at every level and strategy', () => {
  for (const n of [0, 1, 5, 1000, 70000]) {
    const data = sample(n, n + 7);
    for (const level of [0, 1, 6, 9]) {
      for (const strategy of [constants.Z_DEFAULT_STRATEGY, constants.Z_FIXED, constants.Z_HUFFMAN_ONLY]) {
        const z = gzipSync(data, { level, strategy });
        assert.deepEqual(gunzip(new Uint8Array(z)), data, `n ${n}, level ${level}, strategy ${strategy}`);
      }
    }
  }
});

test('gunzip unpacks the canvas wasm the way the build packs it', { skip: !existsSync(join(ROOT, 'dist', 'app.wasm')) && 'no dist/app.wasm' }, () => {
  const wasm = readFileSync(join(ROOT, 'dist', 'app.wasm'));
  const out = gunzip(new Uint8Array(gzipSync(wasm, { level: 9 })));
  assert.equal(Buffer.compare(Buffer.from(out), wasm), 0);
});

test('damaged input is refused with a message, not unpacked into wrong bytes', () => {
  const z = new Uint8Array(gzipSync(sample(5000, 3), { level: 9 }));
  assert.throws(() => gunzip(z.subarray(0, 10)), /damaged: not gzip/);
  assert.throws(() => gunzip(z.subarray(0, z.length - 100)), /damaged/);
  const flipped = z.slice();
  flipped[z.length - 6] ^= 0x40;  // inside the CRC-32
  assert.throws(() => gunzip(flipped), /CRC-32/);
  const body = z.slice();
  body[200] ^= 0x10;  // inside the compressed data
  assert.throws(() => gunzip(body), /damaged/);
});
