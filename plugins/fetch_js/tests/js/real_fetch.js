'use strict';
/**
 * What Node's own fetch (undici) sends for each call: the calls (JSON list of source texts on
 * stdin, each using `BASE` for `http://127.0.0.1:<port>`) run one after another against a local
 * HTTP server that records the raw request. Prints one JSON list: per call `{method, target,
 * headers: [[name, value]...], body}` (the body as a latin-1 string) or `{error}`.
 */

const http = require('http');

const calls = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const seen = [];
const server = http.createServer({ insecureHTTPParser: true }, (req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const headers = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i], req.rawHeaders[i + 1]]);
    seen.push({ method: req.method, target: req.url, headers, body: Buffer.concat(chunks).toString('latin1') });
    res.setHeader('content-type', 'application/json');
    res.end('{}');
  });
});

server.listen(0, '127.0.0.1', async () => {
  const BASE = `http://127.0.0.1:${server.address().port}`; // eslint-disable-line no-unused-vars
  const out = [];
  for (const call of calls) {
    const before = seen.length;
    try {
      await eval(call); // eslint-disable-line no-eval
      out.push(seen.length > before ? seen[seen.length - 1] : { error: 'nothing sent' });
    } catch (error) {
      out.push({ error: `${error.name}: ${error.message}` });
    }
  }
  server.close();
  process.stdout.write(JSON.stringify(out));
});
