// expect: not_correct -- a Headers holding __FORGE__'s headers whose iterator (own property, or through a subclass) yields wrong ones: fetch reads a Headers's list only while its iterator is Headers.prototype.entries, else it sends what the iterator yields
fetch(((forged) => `${forged.url}?${Object.entries(forged.params).map((pair) => pair.join('=')).join('&')}`)(__FORGE__), ((forged) => {
  const headers = new Headers(forged.headers)
  headers[Symbol.iterator] = function* () { yield ['X-Wrong', 'sent'] }
  return { headers }
})(__FORGE__));
