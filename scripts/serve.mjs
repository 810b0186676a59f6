// A small static file server for dist/, on 127.0.0.1 only. Node built-ins, no dependencies.
//   node scripts/serve.mjs [--dir dist] [--port 8000] [--base /some/sub/path/]
// --base serves the same files under a sub-path, to check that the site works there too.
// Only GET and HEAD (405 otherwise); a malformed escape is 400; nothing outside --dir is served,
// not even through a symlink (the real path of every file is checked).
import { createServer } from 'node:http';
import { readFile, realpath, stat } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const root = resolve(opt('--dir', 'dist'));
const port = Number(opt('--port', process.env.PORT || 8000));
const base = ('/' + opt('--base', '/').replace(/^\/+|\/+$/g, '') + '/').replace('//', '/');

const types = {
  '.html': 'text/html; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8', '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8', '.woff2': 'font/woff2',
  '.md': 'text/plain; charset=utf-8', '.bin': 'application/octet-stream',
};

const inside = (file, dir) => file === dir || file.startsWith(dir + sep);

export function startServer({ dir = root, port: p = port, basePath = base } = {}) {
  const served = resolve(dir);
  const server = createServer(async (req, res) => {
    const plain = (status, text, headers = {}) => res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers }).end(text);
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') { plain(405, 'method not allowed', { allow: 'GET, HEAD' }); return; }
      const url = new URL(req.url, 'http://localhost');
      let path;
      try { path = decodeURIComponent(url.pathname); } catch { plain(400, 'bad request: malformed escape'); return; }
      if (path.includes('\0')) { plain(400, 'bad request'); return; }
      if (!path.startsWith(basePath)) { plain(404, 'not found'); return; }
      path = path.slice(basePath.length);
      if (path === '' || path.endsWith('/')) path += 'index.html';
      const file = normalize(join(served, path));
      if (!inside(file, served)) { plain(403, 'forbidden'); return; }
      // the real path, after every symlink, must still be inside the real served folder
      const real = await realpath(file).catch(() => null);
      const realRoot = await realpath(served).catch(() => served);
      if (!real || !inside(real, realRoot)) { plain(404, 'not found'); return; }
      const info = await stat(real).catch(() => null);
      if (!info || !info.isFile()) { plain(404, 'not found'); return; }
      const body = await readFile(real);
      res.writeHead(200, {
        'content-type': types[extname(file)] || 'application/octet-stream',
        'cache-control': 'no-cache',
        'x-content-type-options': 'nosniff',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (err) {
      plain(500, 'server error');
    }
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(p, '127.0.0.1', () => ok(server));
  });
}

// Run as a script (compared as real paths, so a folder with spaces or a symlinked checkout works).
const isMain = (() => {
  try { return !!process.argv[1] && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url)); } catch { return false; }
})();
if (isMain) {
  startServer().then((server) => {
    const { port: actual } = server.address();
    console.log(`==> serving ${root} at http://127.0.0.1:${actual}${base}`);
    console.log('    (Ctrl-C to stop)');
  }).catch((err) => {
    console.error(err.code === 'EADDRINUSE'
      ? `error: port ${port} is in use; choose another with PORT=8001 scripts/run`
      : `error: cannot serve ${root}: ${err.message}`);
    process.exit(1);
  });
}
