// expect: not_correct -- a headers getter that answers wrong headers on its first read and __FORGE__'s on the next: fetch reads init.headers once
fetch(((forged) => `${forged.url}?${Object.entries(forged.params).map((pair) => pair.join('=')).join('&')}`)(__FORGE__), ((forged) => {
  let reads = 0
  return { get headers() { reads += 1; return reads === 1 ? { 'X-Wrong': 'sent' } : forged.headers } }
})(__FORGE__));
