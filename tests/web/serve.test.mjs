// scripts/serve.mjs against hostile requests (issue 15 item 8): nothing outside the served folder,
// even through a symlink; 400 for a malformed escape; 405 for methods other than GET and HEAD; and
// it starts from a folder whose path contains a space.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../scripts/serve.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let tmp, dist, server, port;

before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'serve test '));
  dist = path.join(tmp, 'dist');
  fs.mkdirSync(path.join(dist, 'js'), { recursive: true });
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>in</title>');
  fs.writeFileSync(path.join(dist, 'js', 'a.js'), 'var a;');
  fs.writeFileSync(path.join(tmp, 'secret.txt'), 'SECRET outside dist');
  fs.mkdirSync(path.join(tmp, 'private'));
  fs.writeFileSync(path.join(tmp, 'private', 'key.txt'), 'SECRET in a folder outside dist');
  fs.symlinkSync(path.join(tmp, 'secret.txt'), path.join(dist, 'leak.txt'));          // file link out
  fs.symlinkSync(path.join(tmp, 'private'), path.join(dist, 'private'));              // folder link out
  fs.symlinkSync(path.join(dist, 'js', 'a.js'), path.join(dist, 'alias.js'));         // link that stays inside
  server = await startServer({ dir: dist, port: 0, basePath: '/' });
  port = server.address().port;
});
after(async () => {
  await new Promise((ok) => (server ? server.close(ok) : ok()));
  fs.rmSync(tmp, { recursive: true, force: true });
});

// A raw request (fetch would normalise the path and refuse some methods).
function request(method, rawPath, p = port) {
  return new Promise((ok, fail) => {
    const req = http.request({ host: '127.0.0.1', port: p, method, path: rawPath }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { body += d; });
      res.on('end', () => ok({ status: res.statusCode, headers: res.headers, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

test('serves files inside the folder, GET and HEAD', async () => {
  const r = await request('GET', '/');
  assert.equal(r.status, 200);
  assert.match(r.body, /<title>in<\/title>/);
  assert.equal((await request('GET', '/js/a.js')).body, 'var a;');
  const h = await request('HEAD', '/index.html');
  assert.equal(h.status, 200);
  assert.equal(h.body, '');
  assert.equal((await request('GET', '/alias.js')).body, 'var a;', 'a link that stays inside is served');
});

test('serves nothing outside the folder through a symlink (file or folder)', async () => {
  for (const p of ['/leak.txt', '/private/key.txt', '/private/']) {
    const r = await request('GET', p);
    assert.ok(r.status === 403 || r.status === 404, `${p}: status ${r.status}`);
    assert.doesNotMatch(r.body, /SECRET/, p);
  }
});

test('serves nothing outside the folder through dot segments, encoded or not', async () => {
  for (const p of ['/../secret.txt', '/%2e%2e/secret.txt', '/js/%2e%2e%2f%2e%2e%2fsecret.txt', '/..%5csecret.txt']) {
    const r = await request('GET', p);
    assert.ok(r.status >= 400 && r.status < 500, `${p}: status ${r.status}`);
    assert.doesNotMatch(r.body, /SECRET/, p);
  }
});

test('answers 400 to a malformed escape or a NUL byte, not 500', async () => {
  for (const p of ['/%E0%A4%A', '/%', '/js/%zz.js', '/index.html%00.js']) {
    assert.equal((await request('GET', p)).status, 400, p);
  }
});

test('answers 405 with Allow: GET, HEAD to every other method', async () => {
  for (const m of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
    const r = await request(m, '/index.html');
    assert.equal(r.status, 405, m);
    assert.equal(r.headers.allow, 'GET, HEAD', m);
  }
});

test('starts from a folder whose path contains a space', async () => {
  const site = path.join(tmp, 'a site with spaces');
  fs.mkdirSync(path.join(site, 'scripts'), { recursive: true });
  fs.mkdirSync(path.join(site, 'dist'));
  fs.copyFileSync(path.join(ROOT, 'scripts/serve.mjs'), path.join(site, 'scripts/serve.mjs'));
  fs.writeFileSync(path.join(site, 'dist', 'index.html'), 'spaced out');
  const child = spawn(process.execPath, ['scripts/serve.mjs', '--port', '0'], { cwd: site, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const url = await new Promise((ok, fail) => {
      let out = '';
      const timer = setTimeout(() => fail(new Error(`no "serving" line within 10 s; output: ${out}`)), 10000);
      const read = (d) => {
        out += d;
        const m = out.match(/serving .* at (http:\/\/127\.0\.0\.1:\d+\/)/);
        if (m) { clearTimeout(timer); ok(m[1]); }
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.on('exit', (code) => { clearTimeout(timer); fail(new Error(`serve.mjs exited (${code}) before serving; output: ${out}`)); });
    });
    const r = await request('GET', '/', Number(new URL(url).port));
    assert.equal(r.status, 200);
    assert.equal(r.body, 'spaced out');
  } finally { child.kill(); }
});
