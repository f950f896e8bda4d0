'use strict';
/**
 * `stream` in the sandbox: the classes that form-data, combined-stream and axios's module code
 * build on (`Stream`, `Readable`, `Writable`, `Duplex`, `Transform`, `PassThrough`), with the
 * basic push / write / pipe / destroy behaviour. There is no I/O behind them in the sandbox.
 */

const EventEmitter = require('events');

class Stream extends EventEmitter {
  pipe(destination) {
    this.on('data', (chunk) => destination.write(chunk));
    this.on('end', () => {
      if (typeof destination.end === 'function') destination.end();
    });
    return destination;
  }
}

class Readable extends Stream {
  constructor(options = {}) {
    super();
    this.readable = true;
    this.destroyed = false;
    this.readableEnded = false;
    if (typeof options.read === 'function') this._read = options.read;
  }

  _read() {}

  push(chunk) {
    if (chunk === null) {
      this.readableEnded = true;
      this.emit('end');
      this.emit('close');
      return false;
    }
    this.emit('data', chunk);
    return true;
  }

  read() {
    this._read();
    return null;
  }

  pause() {
    return this;
  }

  resume() {
    return this;
  }

  setEncoding() {
    return this;
  }

  destroy(error) {
    this.destroyed = true;
    if (error) this.emit('error', error);
    this.emit('close');
    return this;
  }

  static from(iterable) {
    const stream = new Readable();
    Promise.resolve().then(async () => {
      for await (const chunk of iterable) stream.push(chunk);
      stream.push(null);
    }).catch((error) => stream.destroy(error));
    return stream;
  }
}

class Writable extends Stream {
  constructor(options = {}) {
    super();
    this.writable = true;
    this.destroyed = false;
    if (typeof options.write === 'function') this._write = options.write;
  }

  _write(chunk, encoding, done) {
    done();
  }

  write(chunk, encoding, callback) {
    this._write(chunk, typeof encoding === 'string' ? encoding : 'utf8', (error) => {
      if (error) this.emit('error', error);
      if (typeof callback === 'function') callback(error);
    });
    return true;
  }

  end(chunk) {
    if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') this.write(chunk);
    this.writable = false;
    this.emit('finish');
    this.emit('close');
    return this;
  }

  destroy(error) {
    this.destroyed = true;
    if (error) this.emit('error', error);
    this.emit('close');
    return this;
  }
}

class Duplex extends Readable {
  constructor(options = {}) {
    super(options);
    this.writable = true;
    if (typeof options.write === 'function') this._write = options.write;
  }
}
for (const name of ['_write', 'write', 'end']) Duplex.prototype[name] = Writable.prototype[name];

class Transform extends Duplex {
  constructor(options = {}) {
    super(options);
    if (typeof options.transform === 'function') this._transform = options.transform;
  }

  _transform(chunk, encoding, done) {
    done(null, chunk);
  }

  _write(chunk, encoding, done) {
    this._transform(chunk, encoding, (error, output) => {
      if (output !== undefined && output !== null) this.push(output);
      done(error);
    });
  }
}

class PassThrough extends Transform {}

function finished(stream, callback) {
  const done = (error) => callback(error);
  stream.once('end', () => done());
  stream.once('finish', () => done());
  stream.once('error', done);
  return () => undefined;
}

function pipeline(...streams) {
  const callback = typeof streams[streams.length - 1] === 'function' ? streams.pop() : null;
  const list = Array.isArray(streams[0]) ? streams[0] : streams;
  for (let i = 0; i < list.length - 1; i += 1) list[i].pipe(list[i + 1]);
  if (callback) finished(list[list.length - 1], callback);
  return list[list.length - 1];
}

Stream.Stream = Stream;
Object.assign(Stream, { Readable, Writable, Duplex, Transform, PassThrough, finished, pipeline });
module.exports = Stream;
