// A small static file server for dist/, on 127.0.0.1 only. Node built-ins, no dependencies.
//   node scripts/serve.mjs [--dir dist] [--port 8000] [--base /some/sub/path/]
// --base serves the same files under a sub-path, to check that the site works there too.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';

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

export function startServer({ dir = root, port: p = port, basePath = base } = {}) {
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://localhost');
      let path = decodeURIComponent(url.pathname);
      if (!path.startsWith(basePath)) { res.writeHead(404).end('not found'); return; }
      path = path.slice(basePath.length);
      if (path === '' || path.endsWith('/')) path += 'index.html';
      const file = normalize(join(dir, path));
      if (file !== dir && !file.startsWith(dir + sep)) { res.writeHead(403).end('forbidden'); return; }
      const info = await stat(file).catch(() => null);
      if (!info || !info.isFile()) { res.writeHead(404).end('not found'); return; }
      const body = await readFile(file);
      res.writeHead(200, {
        'content-type': types[extname(file)] || 'application/octet-stream',
        'cache-control': 'no-cache',
        'x-content-type-options': 'nosniff',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (err) {
      res.writeHead(500).end('server error');
    }
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(p, '127.0.0.1', () => ok(server));
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
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
