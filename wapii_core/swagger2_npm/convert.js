// Converts the Swagger 2.0 description read as JSON on stdin into OpenAPI 3.0, written as JSON on
// stdout. Never touches the network: external references are not resolved (the converted document
// keeps them, and wapii refuses them), and any socket or DNS lookup throws.
'use strict';
const net = require('net');
const dns = require('dns');
const offline = () => { throw new Error('no network access while converting a spec'); };
net.Socket.prototype.connect = offline;
dns.lookup = offline;
dns.resolve = offline;
globalThis.fetch = offline;

const converter = require('swagger2openapi');

const chunks = [];
process.stdin.on('data', (chunk) => chunks.push(chunk));
process.stdin.on('end', async () => {
  try {
    const swagger = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    // patch: fix the small errors real descriptions have (as `swagger2openapi --patch`); anything
    // else it cannot convert is an error. resolve: false keeps external references as they are.
    const options = await converter.convertObj(swagger, { patch: true, warnOnly: false, resolve: false, targetVersion: '3.0.0' });
    process.stdout.write(JSON.stringify(options.openapi));
  } catch (error) {
    process.stderr.write(String((error && error.message) || error).split('\n')[0]);
    process.exitCode = 1;
  }
});
