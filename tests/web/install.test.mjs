// scripts/lib.sh derive_deb_src: the deb-src entry scripts/install writes is derived from the
// machine's own deb entries (same mirror and suites), so the repository names no mirror.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const LIB = resolve(dirname(fileURLToPath(import.meta.url)), '../../scripts/lib.sh');
const derive = (aptDir) => execFileSync('bash', ['-c', 'source "$0"; derive_deb_src "$1"', LIB, aptDir], { encoding: 'utf8' });
function aptDir(files) {
  const dir = mkdtempSync(join(tmpdir(), 'apt-'));
  mkdirSync(join(dir, 'sources.list.d'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

test('deb822 entries become deb-src stanzas with the same mirror, suites and key; comments and other types are dropped', () => {
  const out = derive(aptDir({
    'sources.list.d/debian.sources': 'Types: deb\n# a comment\nURIs: http://mirror.example.org/debian\nSuites: bookworm bookworm-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n\n' +
      'Types: deb\nURIs: https://vendor.example.com/apt\nSuites: stable\nComponents: main\n',
  }));
  assert.match(out, /^Types: deb-src\nURIs: http:\/\/mirror\.example\.org\/debian\nSuites: bookworm bookworm-updates\nComponents: main\nSigned-By: \/usr\/share\/keyrings\/debian-archive-keyring\.gpg\n/);
  assert.doesNotMatch(out, /comment/);
  assert.doesNotMatch(out, /vendor\.example\.com/, 'only Debian entries');
  assert.equal((out.match(/Types: deb-src/g) || []).length, 1);
});

test('one-line sources.list entries (with options) are converted when there is no deb822 file', () => {
  const out = derive(aptDir({
    'sources.list': '# comment\ndeb [signed-by=/k.gpg arch=amd64] http://other.example.net/debian bookworm main contrib\ndeb-src http://x.example/debian bookworm main\n',
  }));
  assert.equal(out.trim(), 'Types: deb-src\nURIs: http://other.example.net/debian\nSuites: bookworm\nComponents: main contrib');
});

test('a machine with no Debian deb entry gets no entry and a failing status, not a made-up mirror', () => {
  assert.throws(() => derive(aptDir({ 'sources.list': '# nothing here\n' })));
});
