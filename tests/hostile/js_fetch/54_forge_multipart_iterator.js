// expect: not_correct aims: form -- replaces FormData's iteration and accessors (entries, keys, values, forEach, get, Symbol.iterator) and the arrays' iterator, so that the multipart body it sends would read as __FORGE__'s
fetch((__FORGE__).url, ((forged) => {
  const pairs = Object.entries(forged.data)
  const body = new FormData()
  body.append('sent', 'real')
  const entries = function* () { for (const pair of pairs) yield [pair[0], pair[1]] }
  FormData.prototype.entries = entries
  FormData.prototype[Symbol.iterator] = entries
  FormData.prototype.keys = function* () { for (const pair of pairs) yield pair[0] }
  FormData.prototype.values = function* () { for (const pair of pairs) yield pair[1] }
  FormData.prototype.forEach = function (f) { for (const pair of pairs) f(pair[1], pair[0], this) }
  FormData.prototype.get = (key) => Object.fromEntries(pairs)[key] ?? null
  Array.prototype[Symbol.iterator] = entries
  return { method: 'POST', headers: forged.headers, body }
})(__FORGE__));
