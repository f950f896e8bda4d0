'use strict';
/**
 * `fs` in the sandbox: an in-memory file system that starts empty with every run (only `/` and
 * `/tmp` exist). What a snippet writes it can read back; reading anything else fails with ENOENT,
 * as reading a missing file does in Node. Synchronous, callback and promise forms of the common
 * calls, and read/write streams.
 */

const buffer = require('buffer');
const path = require('path');
const state = require('../state');
const { Readable, Writable } = require('stream');

function absolute(file) {
  if (file !== null && typeof file === 'object' && typeof file.href === 'string') file = decodeURIComponent(new URL(file.href).pathname);
  if (buffer.Buffer.isBuffer(file)) file = file.toString();
  if (typeof file !== 'string') {
    const error = new TypeError(`The "path" argument must be of type string or an instance of Buffer or URL. Received ${typeof file}`);
    error.code = 'ERR_INVALID_ARG_TYPE';
    throw error;
  }
  return path.resolve(state.cwd, file);
}

function fsError(code, syscall, file) {
  const messages = { ENOENT: 'no such file or directory', EISDIR: 'illegal operation on a directory', EEXIST: 'file already exists', ENOTDIR: 'not a directory' };
  const errnos = { ENOENT: -2, EISDIR: -21, EEXIST: -17, ENOTDIR: -20 };
  const error = new Error(`${code}: ${messages[code]}, ${syscall} '${file}'`);
  return Object.assign(error, { errno: errnos[code], code, syscall, path: file });
}

function encodingOf(options) {
  return typeof options === 'string' ? options : options && options.encoding;
}

function toBuffer(data, options) {
  if (buffer.Buffer.isBuffer(data)) return buffer.Buffer.from(data);
  if (ArrayBuffer.isView(data)) return buffer.Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return buffer.Buffer.from(String(data), encodingOf(options) || 'utf8');
}

function readFileSync(file, options) {
  const name = absolute(file);
  if (state.directories.has(name)) throw fsError('EISDIR', 'read', name);
  const content = state.files.get(name);
  if (content === undefined) throw fsError('ENOENT', 'open', name);
  const encoding = encodingOf(options);
  return encoding ? content.toString(encoding) : buffer.Buffer.from(content);
}

function parentExists(name, syscall) {
  if (!state.directories.has(path.dirname(name))) throw fsError('ENOENT', syscall, name);
}

function writeFileSync(file, data, options) {
  const name = absolute(file);
  parentExists(name, 'open');
  if (state.directories.has(name)) throw fsError('EISDIR', 'open', name);
  state.files.set(name, toBuffer(data, options));
}

function appendFileSync(file, data, options) {
  const name = absolute(file);
  parentExists(name, 'open');
  state.files.set(name, buffer.Buffer.concat([state.files.get(name) || buffer.Buffer.alloc(0), toBuffer(data, options)]));
}

function existsSync(file) {
  try {
    const name = absolute(file);
    return state.files.has(name) || state.directories.has(name);
  } catch {
    return false;
  }
}

function statSync(file) {
  const name = absolute(file);
  const isDirectory = state.directories.has(name);
  if (!isDirectory && !state.files.has(name)) throw fsError('ENOENT', 'stat', name);
  const size = isDirectory ? 4096 : state.files.get(name).length;
  const time = new Date();
  return { size, mode: isDirectory ? 0o40755 : 0o100644, mtime: time, ctime: time, atime: time, birthtime: time,
    isFile: () => !isDirectory, isDirectory: () => isDirectory, isSymbolicLink: () => false };
}

function mkdirSync(file, options = {}) {
  const name = absolute(file);
  if (state.directories.has(name)) {
    if (options.recursive) return undefined;
    throw fsError('EEXIST', 'mkdir', name);
  }
  if (!options.recursive) parentExists(name, 'mkdir');
  const created = [];
  for (let current = name; !state.directories.has(current); current = path.dirname(current)) created.unshift(current);
  for (const directory of created) state.directories.add(directory);
  return options.recursive ? created[0] : undefined;
}

function readdirSync(file) {
  const name = absolute(file);
  if (!state.directories.has(name)) throw fsError(state.files.has(name) ? 'ENOTDIR' : 'ENOENT', 'scandir', name);
  const children = [...state.files.keys(), ...state.directories].filter((entry) => entry !== name && path.dirname(entry) === name);
  return children.map((entry) => path.basename(entry)).sort();
}

function unlinkSync(file) {
  const name = absolute(file);
  if (!state.files.delete(name)) throw fsError('ENOENT', 'unlink', name);
}

function rmSync(file, options = {}) {
  const name = absolute(file);
  if (state.files.delete(name)) return;
  if (state.directories.has(name) && options.recursive) {
    for (const entry of [...state.files.keys()]) if (entry.startsWith(`${name}/`)) state.files.delete(entry);
    for (const entry of [...state.directories]) if (entry === name || entry.startsWith(`${name}/`)) state.directories.delete(entry);
    return;
  }
  if (!options.force) throw fsError('ENOENT', 'rm', name);
}

function accessSync(file) {
  statSync(file);
}

const sync = { accessSync, appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync,
  unlinkSync, writeFileSync, lstatSync: statSync };

/** The callback form of a synchronous call: the result or error arrives on a later turn. */
function callbackForm(call) {
  return function asynchronous(...args) {
    const callback = typeof args[args.length - 1] === 'function' ? args.pop() : null;
    if (callback === null) {
      const error = new TypeError('The "cb" argument must be of type function. Received undefined');
      error.code = 'ERR_INVALID_ARG_TYPE';
      throw error;
    }
    let outcome;
    try {
      outcome = [null, call(...args)];
    } catch (error) {
      outcome = [error];
    }
    state.process.nextTick(() => callback(...outcome));
  };
}

/** The promise form of a synchronous call. */
function promiseForm(call) {
  return (...args) => new Promise((resolve, reject) => {
    try {
      resolve(call(...args));
    } catch (error) {
      reject(error);
    }
  });
}

function createReadStream(file, options) {
  const stream = new Readable();
  stream.path = typeof file === 'string' ? file : String(file);
  state.process.nextTick(() => {
    try {
      const content = readFileSync(file);
      const encoding = encodingOf(options);
      stream.push(encoding ? content.toString(encoding) : content);
      stream.push(null);
    } catch (error) {
      stream.destroy(error);
    }
  });
  return stream;
}

function createWriteStream(file, options) {
  writeFileSync(file, '', options);
  const stream = new Writable({ write: (chunk, encoding, done) => done(appendFileSync(file, chunk)) });
  stream.path = typeof file === 'string' ? file : String(file);
  return stream;
}

const asynchronous = {};
const promises = {};
for (const [name, call] of Object.entries(sync)) {
  if (name === 'existsSync') continue;
  asynchronous[name.replace(/Sync$/, '')] = callbackForm(call);
  promises[name.replace(/Sync$/, '')] = promiseForm(call);
}
asynchronous.exists = (file, callback) => state.process.nextTick(() => callback(existsSync(file)));

module.exports = {
  ...sync,
  ...asynchronous,
  createReadStream,
  createWriteStream,
  promises,
  constants: { F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1, O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2 },
};
