// expect: runtime_error -- a referrer getter that answers an unparsable referrer on its first read (the one undici makes) and a valid one after
fetch(((forged) => `${forged.url}?${Object.entries(forged.params).map((pair) => pair.join('=')).join('&')}`)(__FORGE__), ((forged) => {
  let reads = 0
  return { method: forged.method, headers: forged.headers, get referrer() { reads += 1; return reads === 1 ? '/relative' : 'https://fine.example/' } }
})(__FORGE__));
